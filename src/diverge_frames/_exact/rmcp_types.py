"""rmcp 3.1.4's types where msgspec's typed decoders cannot follow serde.

Where each unit enum sits, and the whole tree of ``inputRequests``, written once as
:mod:`.serde` kinds.

* :data:`ENUM_MEMBERS`: every unit enum of a typed notification's params or of a
  ``ReadResourceResult``, with how serde reads that member (owned ``Content``, which
  also takes ``{"v": {}}``, or directly / by reference: ``"v"`` and ``{"v": null}`` only).
  The exact path (:func:`.rmcp_read.decode_exact`) rewrites a map form to the
  string before msgspec reads the body (:func:`enum_member`). The enums inside
  ``inputRequests`` are in its tree below.
* :data:`INPUT_REQUESTS`: ``DetailedTaskWire.input_requests`` of ``notifications/tasks``
  (``Option<BTreeMap<String, InputRequest>>``, read by reference: ``rmcp::model::task``,
  ``mrtr``): the request union, each request's params, ``content`` blocks, tools,
  elicitation schemas. :func:`read_input_requests` gives the value as rmcp writes it
  back, or raises :class:`~.serde.Mismatch` (rmcp then takes the whole notification as
  a ``CustomNotification``). The hot paths send every body with a params member in
  :data:`MODEL_MEMBER_NAMES` to the exact path, so no other reading of it exists.

Sources: ``rmcp-3.1.4/src/model.rs`` (sampling, elicitation, roots), ``model/content.rs``,
``model/annotated.rs``, ``model/tool.rs``, ``model/resource.rs``,
``model/elicitation_schema.rs``, ``model/serde_impl.rs`` (the request envelope).
"""

from __future__ import annotations

from typing import Any, get_args

from .. import types as t
from .serde import (
    BOOL,
    F32,
    F32_IN_JSON,
    F64,
    I64,
    OBJECT,
    STR,
    U32,
    U64,
    VALUE,
    Const,
    Field,
    Map,
    Mismatch,
    Opt,
    Seq,
    Struct,
    Tagged,
    UnitEnum,
    Untagged,
    _Kind,
)
from .serde_json import Obj, plain

__all__ = [
    "ENUM_MEMBERS",
    "MODEL_MEMBERS",
    "MODEL_MEMBER_NAMES",
    "INPUT_REQUESTS",
    "Request",
    "enum_member",
    "read_input_requests",
]


def _enum(name: str, alias: Any) -> UnitEnum:
    """The unit enum whose variants are the ``Literal`` alias of :mod:`.types`."""
    return UnitEnum(name, get_args(alias))


LOGGING_LEVEL = _enum("LoggingLevel", t.LoggingLevel)
TASK_STATUS = _enum("TaskStatus", t.TaskStatus)
CACHE_SCOPE = _enum("CacheScope", t.CacheScope)
ROLE = _enum("Role", t.Role)
CONTEXT_INCLUSION = _enum("ContextInclusion", t.ContextInclusion)
TOOL_CHOICE_MODE = _enum("ToolChoiceMode", t.ToolChoiceMode)
ICON_THEME = _enum("IconTheme", t.IconTheme)
STRING_FORMAT = _enum("StringFormat", t.StringFormat)

#: Where a unit enum sits outside ``inputRequests``: the method (or
#: ``"ReadResourceResult"``) -> (member, enum, read from owned ``Content``). A
#: notification's params struct is reached through ``WithMeta``'s ``#[serde(flatten)]``,
#: so its fields are read from owned ``Content``; ``DetailedTask``'s ``Task`` likewise.
#: ``ReadResourceResult`` is read straight from serde_json (object and array form).
ENUM_MEMBERS: dict[str, tuple[tuple[str, UnitEnum, bool], ...]] = {
    "notifications/message": (("level", LOGGING_LEVEL, True),),
    "notifications/tasks": (("status", TASK_STATUS, True),),
    "ReadResourceResult": (("cacheScope", CACHE_SCOPE, False),),
}


def enum_member(enum: UnitEnum, node: Any, owned: bool) -> Any:
    """The variant a unit-enum member names, as rmcp writes it (``"v"``).

    ``node`` unchanged (plain) when the enum does not read it, for msgspec to reject.
    """
    try:
        return enum.read(node, owned)
    except Mismatch:
        return plain(node)


# ----------------------------------------------------------------- the request envelope


class Request(_Kind):
    """rmcp's ``Request<M, P>`` / ``RequestNoParam<M>`` (``model/serde_impl.rs``).

    The derived ``Proxy`` / ``ProxyOptionalParam`` ``{method, params}`` (or ``[method,
    params]``; other members such as ``jsonrpc`` and ``id`` dropped), ``params`` read by
    ``WithMeta`` (an object only: ``_meta`` an object or ``null``, the rest flattened
    into ``params``). ``params=None``: ``RequestNoParam``, whose ``params`` may be
    absent or ``null`` and keep only ``_meta`` (written only when there is one).
    """

    def __init__(self, method: str, params: Struct | Tagged | None) -> None:
        self.method, self.params = method, params

    def read(self, node: Any, owned: bool) -> dict[str, Any]:
        if type(node) is list:
            if len(node) != 2:
                raise Mismatch(f"invalid length {len(node)} for a request")
            method, params = node
        elif type(node) is Obj:
            method, params = _member(node, "method"), _member(node, "params")
        else:
            raise Mismatch("expected a request")
        if type(method) is not str or method != self.method:
            raise Mismatch(f"expected method {self.method!r}")
        out: dict[str, Any] = {"method": method}
        if params is _MISSING or params is None:
            if self.params is not None:
                raise Mismatch("missing params")
            return out
        if type(params) is not Obj:
            raise Mismatch("params: expected an object")
        metas = [value for key, value in params if key == "_meta"]
        if len(metas) > 1:
            raise Mismatch("duplicate field '_meta'")
        meta = metas[0] if metas else None
        if meta is not None and type(meta) is not Obj:
            raise Mismatch("_meta: expected an object")
        rest = [(key, value) for key, value in params if key != "_meta"]
        written: dict[str, Any] = {} if meta is None else {"_meta": plain(meta)}
        if self.params is not None:
            # A flattened plain struct's fields, and an internally tagged enum's body, are
            # read from owned Content.
            written.update(self.params.read_map(rest, True))
        elif not written:
            return out
        out["params"] = written
        return out


_MISSING = object()


def _member(node: Obj, name: str) -> Any:
    values = [value for key, value in node if key == name]
    if len(values) > 1:
        raise Mismatch(f"duplicate field {name!r}")
    if not values and name == "method":
        raise Mismatch("missing field 'method'")
    return values[0] if values else _MISSING


# ------------------------------------------------------------------------ the types

F = Field
META = F("_meta", Opt(OBJECT))  # Option<MetaObject>: a real field of the struct
TITLE, DESCRIPTION = F("title", Opt(STR)), F("description", Opt(STR))

ANNOTATIONS = Struct(
    "Annotations",
    F("audience", Opt(Seq(ROLE))),
    F("priority", Opt(F32_IN_JSON)),
    F("lastModified", Opt(STR)),
)
_ANNOTATED = (META, F("annotations", Opt(ANNOTATIONS)))
TEXT_CONTENT = Struct("TextContent", F("text", STR), *_ANNOTATED)
IMAGE_CONTENT = Struct("ImageContent", F("data", STR), F("mimeType", STR), *_ANNOTATED)
AUDIO_CONTENT = Struct("AudioContent", F("data", STR), F("mimeType", STR), *_ANNOTATED)
ICON = Struct(
    "Icon",
    F("src", STR),
    F("mimeType", Opt(STR)),
    F("sizes", Opt(Seq(STR))),
    F("theme", Opt(ICON_THEME)),
)
_ICONS = F("icons", Opt(Seq(ICON)))
RESOURCE = Struct(
    "Resource",
    F("uri", STR),
    F("name", STR),
    TITLE,
    DESCRIPTION,
    F("mimeType", Opt(STR)),
    F("size", Opt(U64)),
    _ICONS,
    *_ANNOTATED,
)
_CONTENTS = (F("uri", STR), F("mimeType", Opt(STR)))
RESOURCE_CONTENTS = Untagged(
    "ResourceContents",
    Struct("TextResourceContents", *_CONTENTS, F("text", STR), META, seq=False),
    Struct("BlobResourceContents", *_CONTENTS, F("blob", STR), META, seq=False),
)
EMBEDDED_RESOURCE = Struct("EmbeddedResource", F("resource", RESOURCE_CONTENTS), *_ANNOTATED)
_MEDIA = (("text", TEXT_CONTENT), ("image", IMAGE_CONTENT), ("audio", AUDIO_CONTENT))
CONTENT_BLOCK = Tagged(
    "ContentBlock",
    "type",
    (*_MEDIA, ("resource", EMBEDDED_RESOURCE), ("resource_link", RESOURCE)),
)
TOOL_USE_CONTENT = Struct("ToolUseContent", F("id", STR), F("name", STR), F("input", OBJECT), META)
TOOL_RESULT_CONTENT = Struct(
    "ToolResultContent",
    META,
    F("toolUseId", STR),
    F("content", Seq(CONTENT_BLOCK)),
    F("structuredContent", Opt(VALUE)),
    F("isError", Opt(BOOL)),
)
SAMPLING_BLOCK = Tagged(
    "SamplingMessageContentBlock",
    "type",
    (*_MEDIA, ("tool_use", TOOL_USE_CONTENT), ("tool_result", TOOL_RESULT_CONTENT)),
)
SAMPLING_MESSAGE = Struct(
    "SamplingMessage",
    F("role", ROLE),
    F("content", Untagged("SamplingContent", SAMPLING_BLOCK, Seq(SAMPLING_BLOCK))),
    META,
)
MODEL_PREFERENCES = Struct(
    "ModelPreferences",
    F("hints", Opt(Seq(Struct("ModelHint", F("name", Opt(STR)))))),
    F("costPriority", Opt(F32)),
    F("speedPriority", Opt(F32)),
    F("intelligencePriority", Opt(F32)),
)
TOOL_ANNOTATIONS = Struct(
    "ToolAnnotations",
    TITLE,
    *(F(name, Opt(BOOL)) for name in ("readOnlyHint", "destructiveHint", "idempotentHint")),
    F("openWorldHint", Opt(BOOL)),
)
TOOL = Struct(
    "Tool",
    F("name", STR),
    TITLE,
    DESCRIPTION,
    F("inputSchema", OBJECT),
    F("outputSchema", Opt(OBJECT)),
    F("annotations", Opt(TOOL_ANNOTATIONS)),
    _ICONS,
    META,
)
#: ``CreateMessageRequestParams`` less its ``_meta``, which ``WithMeta`` takes first.
CREATE_MESSAGE_PARAMS = Struct(
    "CreateMessageRequestParams",
    F("messages", Seq(SAMPLING_MESSAGE)),
    F("modelPreferences", Opt(MODEL_PREFERENCES)),
    F("systemPrompt", Opt(STR)),
    F("includeContext", Opt(CONTEXT_INCLUSION)),
    F("temperature", Opt(F32)),
    F("maxTokens", U32),
    F("stopSequences", Opt(Seq(STR))),
    F("metadata", Opt(VALUE)),
    F("tools", Opt(Seq(TOOL))),
    F("toolChoice", Opt(Struct("ToolChoice", F("mode", Opt(TOOL_CHOICE_MODE))))),
)

# Elicitation schemas (model/elicitation_schema.rs), each property tried in order.
_OPT_U64 = Opt(U64)
CONST_TITLE = Struct("ConstTitle", F("const", STR), F("title", STR))
_STRING = F("type", Const("string"))
_ARRAY = F("type", Const("array"))
_ENUM = F("enum", Seq(STR))
_DEFAULT_STR = F("default", Opt(STR))
_MULTI = (TITLE, DESCRIPTION, F("minItems", _OPT_U64), F("maxItems", _OPT_U64))
ENUM_SCHEMA = Untagged(
    "EnumSchema",
    Untagged(
        "SingleSelectEnumSchema",
        Struct(
            "UntitledSingleSelectEnumSchema",
            _STRING,
            TITLE,
            DESCRIPTION,
            _ENUM,
            _DEFAULT_STR,
            deny_unknown=True,
        ),
        Struct(
            "TitledSingleSelectEnumSchema",
            _STRING,
            TITLE,
            DESCRIPTION,
            F("oneOf", Seq(CONST_TITLE)),
            _DEFAULT_STR,
        ),
    ),
    Untagged(
        "MultiSelectEnumSchema",
        Struct(
            "UntitledMultiSelectEnumSchema",
            _ARRAY,
            *_MULTI,
            F("items", Struct("UntitledItems", _STRING, _ENUM)),
            F("default", Opt(Seq(STR))),
        ),
        Struct(
            "TitledMultiSelectEnumSchema",
            _ARRAY,
            *_MULTI,
            F("items", Struct("TitledItems", F("anyOf", Seq(CONST_TITLE), aliases=("oneOf",)))),
            F("default", Opt(Seq(STR))),
        ),
    ),
    Struct(
        "LegacyEnumSchema",
        _STRING,
        TITLE,
        DESCRIPTION,
        _ENUM,
        F("enumNames", Opt(Seq(STR))),
        _DEFAULT_STR,
    ),
)
_BOUNDED = (TITLE, DESCRIPTION)
PRIMITIVE_SCHEMA = Untagged(
    "PrimitiveSchemaDefinition",
    ENUM_SCHEMA,
    Struct(
        "StringSchema",
        _STRING,
        *_BOUNDED,
        F("minLength", Opt(U32)),
        F("maxLength", Opt(U32)),
        F("format", Opt(STRING_FORMAT)),
        _DEFAULT_STR,
    ),
    Struct(
        "NumberSchema",
        F("type", Const("number")),
        *_BOUNDED,
        *(F(name, Opt(F64)) for name in ("minimum", "maximum", "default")),
    ),
    Struct(
        "IntegerSchema",
        F("type", Const("integer")),
        *_BOUNDED,
        *(F(name, Opt(I64)) for name in ("minimum", "maximum", "default")),
    ),
    Struct("BooleanSchema", F("type", Const("boolean")), *_BOUNDED, F("default", Opt(BOOL))),
)
ELICITATION_SCHEMA = Struct(
    "ElicitationSchema",
    F("$schema", Opt(STR), default=True),
    F("type", Const("object")),
    TITLE,
    F("properties", Map(PRIMITIVE_SCHEMA)),
    F("required", Opt(Seq(STR))),
    DESCRIPTION,
)
_MESSAGE = F("message", STR)
_FORM = (_MESSAGE, F("requestedSchema", ELICITATION_SCHEMA))
#: ``ElicitRequestParamsWire`` (``_meta`` taken by ``WithMeta``): ``mode`` names the
#: variant; without a usable one, the untagged ``LegacyForm`` (written as a form).
ELICIT_PARAMS = Tagged(
    "ElicitRequestParams",
    "mode",
    (
        ("form", Struct("FormElicitationParams", *_FORM)),
        (
            "url",
            Struct("UrlElicitationParams", _MESSAGE, F("url", STR), F("elicitationId", STR)),
        ),
    ),
    fallback=(("form", Struct("LegacyForm", *_FORM, seq=False)),),
)

#: rmcp ``InputRequest`` (``model/mrtr.rs``, untagged): sampling, elicitation, roots.
INPUT_REQUEST = Untagged(
    "InputRequest",
    Request("sampling/createMessage", CREATE_MESSAGE_PARAMS),
    Request("elicitation/create", ELICIT_PARAMS),
    Request("roots/list", None),
)
#: ``DetailedTaskWire.input_requests``: ``Option<InputRequests>``, read by reference.
INPUT_REQUESTS = Opt(Map(INPUT_REQUEST))

#: Params members only this model reads: method -> {wire name: (its kind, the attribute
#: of the params struct, the public type)}. rmcp reads them whatever else the params
#: hold (``inputRequests`` whatever the task's status).
MODEL_MEMBERS: dict[str, dict[str, tuple[_Kind, str, Any]]] = {
    "notifications/tasks": {
        "inputRequests": (INPUT_REQUESTS, "input_requests", dict[str, t.InputRequest]),
    },
}
#: Their wire names: a body with one in the object at JSON depth 2 (a notification's
#: ``params``) takes the exact path in both pre-checks.
MODEL_MEMBER_NAMES: frozenset[str] = frozenset(n for m in MODEL_MEMBERS.values() for n in m)


def read_input_requests(node: Any) -> dict[str, Any] | None:
    """The ``inputRequests`` value ``node`` as rmcp writes it back, ``None`` for ``null``.

    ``node`` as :func:`.serde_json_reader.parse` read it. Raises Mismatch when rmcp
    cannot read it.
    """
    value: dict[str, Any] | None = INPUT_REQUESTS.read(node, False)
    return value
