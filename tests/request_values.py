"""Hypothesis strategies for the typed ``inputRequests`` of ``notifications/tasks``, built
the way decode builds them: every member in the form rmcp writes it (content blocks,
tools and schemas as plain dicts with only the members rmcp keeps, ``f32`` members
holding single-precision values, ``f64`` ones floats)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from diverge_frames import types as t
from diverge_frames._exact.serde import f32

TEXT = st.text(max_size=12)
#: A float rmcp reads back exactly: at most 15 significant digits, below 10^16.
FLOAT = st.builds(
    lambda m, k: m / 10**k, st.integers(-(10**15) + 1, 10**15 - 1), st.integers(0, 15)
)
#: An rmcp ``f32`` as decode holds it: a single-precision value, widened.
F32 = FLOAT.map(f32)
JSON_LEAF = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | FLOAT | TEXT
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)
JSON_OBJECT = st.dictionaries(TEXT, JSON_VALUE, max_size=3)
ROLES = st.sampled_from(["user", "assistant"])


def _struct(required: dict[str, Any], optional: dict[str, Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(required, optional=optional)


def _block(kind: str, required: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    annotations = _struct(
        {}, {"audience": st.lists(ROLES, max_size=2), "priority": F32, "lastModified": TEXT}
    )
    return _struct(
        {"type": st.just(kind), **required}, {"_meta": JSON_OBJECT, "annotations": annotations}
    )


_TEXT = _block("text", {"text": TEXT})
_IMAGE = _block("image", {"data": TEXT, "mimeType": TEXT})
_TOOL_USE = _struct(
    {"type": st.just("tool_use"), "id": TEXT, "name": TEXT, "input": JSON_OBJECT},
    {"_meta": JSON_OBJECT},
)
_TOOL_RESULT = _struct(
    {"type": st.just("tool_result"), "toolUseId": TEXT, "content": st.lists(_TEXT, max_size=2)},
    {"structuredContent": JSON_OBJECT, "isError": st.booleans(), "_meta": JSON_OBJECT},
)
BLOCK = st.one_of(_TEXT, _IMAGE, _TOOL_USE, _TOOL_RESULT)
_ICON = _struct({"src": TEXT}, {"theme": st.sampled_from(["light", "dark"])})
TOOL = _struct(
    {"name": TEXT, "inputSchema": JSON_OBJECT},
    {
        "description": TEXT,
        "icons": st.lists(_ICON, max_size=1),
        "annotations": _struct({}, {"readOnlyHint": st.booleans()}),
    },
)
_PROPERTY = st.one_of(
    _struct({"type": st.just("string")}, {"format": st.sampled_from(["email", "date-time"])}),
    _struct({"type": st.just("number")}, {"minimum": FLOAT.map(float), "default": FLOAT}),
    _struct({"type": st.just("integer")}, {"maximum": st.integers(-(2**63), 2**63 - 1)}),
    _struct({"type": st.just("boolean")}, {"default": st.booleans()}),
    _struct({"type": st.just("string"), "enum": st.lists(TEXT, max_size=2)}, {}),
)
SCHEMA = _struct(
    {"type": st.just("object"), "properties": st.dictionaries(TEXT, _PROPERTY, max_size=2)},
    {"required": st.lists(TEXT, max_size=2), "title": TEXT},
)
META = st.none() | JSON_OBJECT

CREATE_MESSAGE = st.builds(
    t.CreateMessageRequest,
    params=st.builds(
        t.CreateMessageRequestParams,
        meta=META,
        messages=st.lists(
            st.builds(
                t.SamplingMessage,
                meta=META,
                role=ROLES,
                content=BLOCK | st.lists(BLOCK, max_size=2),
            ),
            max_size=2,
        ),
        max_tokens=st.integers(0, 2**32 - 1),
        system_prompt=st.none() | TEXT,
        include_context=st.none() | st.sampled_from(["allServers", "none", "thisServer"]),
        temperature=st.none() | F32,
        stop_sequences=st.none() | st.lists(TEXT, max_size=2),
        metadata=JSON_VALUE,
        model_preferences=st.none()
        | st.builds(
            t.ModelPreferences,
            hints=st.none() | st.lists(st.builds(t.ModelHint, name=st.none() | TEXT), max_size=2),
            cost_priority=st.none() | F32,
            speed_priority=st.none() | F32,
            intelligence_priority=st.none() | F32,
        ),
        tools=st.none() | st.lists(TOOL, max_size=2),
        tool_choice=st.none()
        | st.builds(t.ToolChoice, mode=st.none() | st.sampled_from(["auto", "required", "none"])),
    ),
)
ELICIT = st.builds(
    t.ElicitRequest,
    params=st.one_of(
        st.builds(
            t.ElicitRequestParams,
            meta=META,
            mode=st.just("form"),
            message=TEXT,
            requested_schema=SCHEMA,
        ),
        st.builds(
            t.ElicitRequestParams,
            meta=META,
            mode=st.just("url"),
            message=TEXT,
            url=TEXT,
            elicitation_id=TEXT,
        ),
    ),
)
LIST_ROOTS = st.builds(t.ListRootsRequest, params=st.none() | st.builds(t.RequestParams, meta=META))
#: ``DetailedTaskNotificationParams.input_requests`` as decode builds it.
INPUT_REQUESTS = st.dictionaries(TEXT, st.one_of(CREATE_MESSAGE, ELICIT, LIST_ROOTS), max_size=3)
