"""Differential cases for the parts of rmcp's model msgspec cannot follow alone: every
unit enum in every form serde might take, at every position it sits; the tags of the
internally tagged enums; and ``inputRequests`` (each kind of request, realistic and
full, then every member of every object dropped, nulled, duplicated, retyped, every
object in array form and with an unknown member, every number spelled otherwise, every
string in a map form).

:data:`MODEL_CASES` is the fixed list (a part of it, :data:`MODEL_VECTOR_CASES`, is
``tests/vectors/model.jsonl``); each case id
starts with its family (``enum/``, ``tag/``, ``ir/``, ``ir-mut/``), for the counts per
family. No pytest imports here.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

from rmcp_diff import DATA, NOTIFICATIONS, READ_RESOURCE, Case

# --------------------------------------------------------------------------- JSON text


class Raw(str):
    """JSON text written as is (a number's spelling, a prepared value)."""


class Obj:
    """An object: its members in order, duplicates kept."""

    def __init__(self, *pairs: tuple[str, Any]) -> None:
        self.pairs = list(pairs)


def dump(node: Any) -> str:
    """``node`` as compact JSON text: :class:`Obj` with its pairs as given, ``Raw`` as is."""
    if isinstance(node, Raw):
        return str(node)
    if isinstance(node, Obj):
        return "{" + ",".join(f"{json.dumps(k)}:{dump(v)}" for k, v in node.pairs) + "}"
    if isinstance(node, list):
        return "[" + ",".join(dump(v) for v in node) + "]"
    return json.dumps(node, ensure_ascii=False)


def task(requests: Any, status: str = "input_required", member: str = "inputRequests") -> str:
    """A ``notifications/tasks`` body whose ``member`` is ``requests`` (JSON text)."""
    return (
        '{"method":"notifications/tasks","params":{"taskId":"t1","status":"' + status + '",'
        '"createdAt":"2025-01-01T00:00:00Z","lastUpdatedAt":"2025-01-01T00:00:05Z",'
        '"ttlMs":60000,"' + member + '":' + requests + "}}"
    )


def _n(case_id: str, body: str) -> Case:
    return Case(case_id, NOTIFICATIONS, b"\x00" + body.encode("utf-8"))


# ------------------------------------------------------------------------ unit enums

#: The forms a unit enum member might come in, from the valid variant ``v``.
ENUM_FORMS: dict[str, Any] = {
    "str": lambda v: json.dumps(v),
    "str-escaped": lambda v: '"' + "".join(f"\\u{ord(c):04x}" for c in v) + '"',
    "map-null": lambda v: "{" + json.dumps(v) + ":null}",
    "map-null-spaced": lambda v: "{ " + json.dumps(v) + " : null }",
    "map-key-escaped": lambda v: '{"\\u' + f"{ord(v[0]):04x}" + v[1:] + '":null}',
    "map-obj": lambda v: "{" + json.dumps(v) + ":{}}",
    "map-arr": lambda v: "{" + json.dumps(v) + ":[]}",
    "map-1": lambda v: "{" + json.dumps(v) + ":1}",
    "map-str": lambda v: "{" + json.dumps(v) + ':""}',
    "map-false": lambda v: "{" + json.dumps(v) + ":false}",
    "map-objx": lambda v: "{" + json.dumps(v) + ':{"a":1}}',
    "map-2keys": lambda v: "{" + json.dumps(v) + ':null,"x":null}',
    "map-dup": lambda v: "{" + json.dumps(v) + ":null," + json.dumps(v) + ":null}",
    "map-empty": lambda v: "{}",
    "seq": lambda v: "[" + json.dumps(v) + "]",
    "seq-null": lambda v: "[" + json.dumps(v) + ",null]",
    "upper": lambda v: json.dumps(v.upper()),
    "bogus": lambda v: '"bogus"',
    "bogus-map": lambda v: '{"bogus":null}',
    "null": lambda v: "null",
    "int": lambda v: "0",
    "true": lambda v: "true",
}

_SAMPLING = '{"method":"sampling/createMessage","params":{"messages":[%s],"maxTokens":64%s}}'
_USER_TEXT = '{"role":"user","content":{"type":"text","text":"hi"}}'
_FORM = (
    '{"method":"elicitation/create","params":{"mode":"form","message":"m",'
    '"requestedSchema":{"type":"object","properties":{"p":%s}}}}'
)


def _ir(request: str) -> str:
    return task('{"r1":' + request + "}")


#: (position, channel, template with ``@X@`` where the enum goes, the valid variant).
ENUM_POSITIONS: list[tuple[str, str, str, str]] = [
    (
        "log.level",
        NOTIFICATIONS,
        '{"method":"notifications/message","params":{"level":@X@,"data":"x"}}',
        "info",
    ),
    (
        "log.level.seq-form",
        NOTIFICATIONS,
        '["notifications/message",{"data":1,"level":@X@}]',
        "warning",
    ),
    ("task.status", NOTIFICATIONS, task("null").replace('"input_required"', "@X@"), "working"),
    (
        "task.status.completed",
        NOTIFICATIONS,
        task('{"a":1}', member="result").replace('"input_required"', "@X@"),
        "completed",
    ),
    (
        "task.status.input_required",
        NOTIFICATIONS,
        task('{"r":{"method":"roots/list"}}').replace('"input_required"', "@X@"),
        "input_required",
    ),
    (
        "tasks-status.status",
        NOTIFICATIONS,
        (
            '{"method":"notifications/tasks/status","params":{"taskId":"t","status":@X@,'
            '"createdAt":"c","lastUpdatedAt":"u","ttl":null}}'
        ),
        "working",
    ),
    ("cacheScope", READ_RESOURCE, '{"contents":[],"cacheScope":@X@}', "public"),
    (
        "cacheScope.seq-form",
        READ_RESOURCE,
        '[null,null,@X@,[{"uri":"u","text":"t"}],null]',
        "private",
    ),
    (
        "ir.role",
        NOTIFICATIONS,
        _ir(_SAMPLING % ('{"role":@X@,"content":{"type":"text","text":"hi"}}', "")),
        "user",
    ),
    (
        "ir.audience",
        NOTIFICATIONS,
        _ir(
            _SAMPLING
            % (
                '{"role":"user","content":{"type":"text","text":"hi","annotations":{"audience":[@X@]}}}',
                "",
            )
        ),
        "assistant",
    ),
    (
        "ir.includeContext",
        NOTIFICATIONS,
        _ir(_SAMPLING % (_USER_TEXT, ',"includeContext":@X@')),
        "thisServer",
    ),
    (
        "ir.toolChoice.mode",
        NOTIFICATIONS,
        _ir(_SAMPLING % (_USER_TEXT, ',"toolChoice":{"mode":@X@}')),
        "required",
    ),
    (
        "ir.tool.icon.theme",
        NOTIFICATIONS,
        _ir(
            _SAMPLING
            % (
                _USER_TEXT,
                ',"tools":[{"name":"t","inputSchema":{},"icons":[{"src":"s","theme":@X@}]}]',
            )
        ),
        "dark",
    ),
    (
        "ir.resource_link.icon.theme",
        NOTIFICATIONS,
        _ir(
            _SAMPLING
            % (
                (
                    '{"role":"user","content":{"type":"tool_result","toolUseId":"u","content":'
                    '[{"type":"resource_link","uri":"f:///a","name":"a","icons":[{"src":"s","theme":@X@}]}]}}'
                ),
                "",
            )
        ),
        "light",
    ),
    (
        "ir.embedded.audience",
        NOTIFICATIONS,
        _ir(
            _SAMPLING
            % (
                (
                    '{"role":"user","content":{"type":"tool_result","toolUseId":"u","content":'
                    '[{"type":"resource","resource":{"uri":"u","text":"t"},"annotations":{"audience":[@X@]}}]}}'
                ),
                "",
            )
        ),
        "user",
    ),
    ("ir.format", NOTIFICATIONS, _ir(_FORM % '{"type":"string","format":@X@}'), "date-time"),
    (
        "ir.format.legacy-form",
        NOTIFICATIONS,
        _ir(_FORM.replace('"mode":"form",', "") % '{"type":"string","format":@X@}'),
        "email",
    ),
    (
        "ir.format.seq-form",
        NOTIFICATIONS,
        _ir(_FORM % '["string",null,null,null,null,@X@,null]'),
        "uri",
    ),
]


def enum_cases() -> Iterator[Case]:
    for position, channel, template, variant in ENUM_POSITIONS:
        for form, make in ENUM_FORMS.items():
            body = template.replace("@X@", make(variant))
            yield Case(f"enum/{position}/{form}", channel, b"\x00" + body.encode())


# ------------------------------------------------------------------------------ tags

#: The values a tag member might take, from its valid name and variant count.
TAG_FORMS: dict[str, Any] = {
    "name": lambda name, n, i: json.dumps(name),
    "index": lambda name, n, i: str(i),
    "index-out-of-range": lambda name, n, i: str(n),
    "negative": lambda name, n, i: "-1",
    "float": lambda name, n, i: f"{i}.0",
    "index-as-string": lambda name, n, i: json.dumps(str(i)),
    "upper": lambda name, n, i: json.dumps(name.upper()),
    "map-null": lambda name, n, i: "{" + json.dumps(name) + ":null}",
    "null": lambda name, n, i: "null",
    "big": lambda name, n, i: "18446744073709551615",
}
_BLOCK_IN_RESULT = '{"role":"user","content":{"type":"tool_result","toolUseId":"u","content":[%s]}}'
#: (position, template with ``@T@`` for the tag value, the tag's name, variant count, index).
TAG_POSITIONS: list[tuple[str, str, str, int, int]] = [
    (
        "sampling.text",
        _SAMPLING % ('{"role":"user","content":{"type":@T@,"text":"hi"}}', ""),
        "text",
        5,
        0,
    ),
    (
        "sampling.image",
        _SAMPLING
        % ('{"role":"user","content":{"type":@T@,"data":"AA","mimeType":"image/png"}}', ""),
        "image",
        5,
        1,
    ),
    (
        "sampling.tool_use",
        _SAMPLING
        % ('{"role":"assistant","content":{"type":@T@,"id":"i","name":"n","input":{}}}', ""),
        "tool_use",
        5,
        3,
    ),
    (
        "sampling.tool_result",
        _SAMPLING % ('{"role":"user","content":{"type":@T@,"toolUseId":"u","content":[]}}', ""),
        "tool_result",
        5,
        4,
    ),
    (
        "block.resource",
        _SAMPLING % (_BLOCK_IN_RESULT % '{"type":@T@,"resource":{"uri":"u","blob":"AA"}}', ""),
        "resource",
        5,
        3,
    ),
    (
        "block.resource_link",
        _SAMPLING % (_BLOCK_IN_RESULT % '{"type":@T@,"uri":"u","name":"n","size":3}', ""),
        "resource_link",
        5,
        4,
    ),
    (
        "block.audio",
        _SAMPLING % (_BLOCK_IN_RESULT % '{"type":@T@,"data":"AA","mimeType":"audio/wav"}', ""),
        "audio",
        5,
        2,
    ),
    (
        "mode.form",
        '{"method":"elicitation/create","params":{"mode":@T@,"message":"m","requestedSchema":{"type":"object","properties":{}}}}',
        "form",
        2,
        0,
    ),
    (
        "mode.url",
        '{"method":"elicitation/create","params":{"mode":@T@,"message":"m","url":"https://x","elicitationId":"e"}}',
        "url",
        2,
        1,
    ),
]


def tag_cases() -> Iterator[Case]:
    for position, template, name, count, index in TAG_POSITIONS:
        for form, make in TAG_FORMS.items():
            yield _n(
                f"tag/{position}/{form}", _ir(template.replace("@T@", make(name, count, index)))
            )
        tag = '"type"' if "mode" not in position else '"mode"'
        value = json.dumps(name)
        yield _n(f"tag/{position}/missing", _ir(template.replace(f"{tag}:@T@,", "")))
        yield _n(
            f"tag/{position}/duplicate", _ir(template.replace("@T@", f"{value},{tag}:{value}"))
        )


# -------------------------------------------------------------------- input requests

#: Realistic input requests (``tests/data/model-requests.jsonl``, one a line: ``name``
#: and ``request``), each object's members in rmcp's declaration order, so that the
#: array-form mutation is the right one; numbers kept as spelled.
REQUESTS: dict[str, Obj] = {
    dict(line.pairs)["name"]: dict(line.pairs)["request"]
    for line in (
        json.loads(
            text, object_pairs_hook=lambda pairs: Obj(*pairs), parse_float=Raw, parse_int=Raw
        )
        for text in (DATA / "model-requests.jsonl").read_text(encoding="utf-8").splitlines()
    )
}


#: What a member's value is replaced with by the ``retype`` mutation.
_RETYPED = {
    "int": Raw("1"),
    "float": Raw("1.5"),
    "string": "x",
    "bool": True,
    "array": [],
    "object": Obj(),
}
#: Other spellings of a number (``n`` is its text).
_NUMBER_SPELLINGS = {
    "float": lambda n: n if "." in n else n + ".0",
    "exponent": lambda n: n + "e0",
    "negative": lambda n: "-" + n,
    "minus-zero": lambda n: "-0",
    "u32-max+1": lambda n: "4294967296",
    "f32-overflow": lambda n: "1e39",
    "f64-overflow-free": lambda n: "1e300",
    "tiny": lambda n: "1e-50",
    "u64-max": lambda n: "18446744073709551615",
    "i64-min-1": lambda n: "-9223372036854775809",
}


def _places(node: Any, path: str) -> Iterator[tuple[str, Any, Any, Any]]:
    """Every (path, container, key or index, value) under ``node``."""
    if isinstance(node, Obj):
        for index, (key, value) in enumerate(node.pairs):
            yield f"{path}.{key}", node, index, value
            yield from _places(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield f"{path}[{index}]", node, index, value
            yield from _places(value, f"{path}[{index}]")


def _copy(node: Any) -> Any:
    if isinstance(node, Obj):
        return Obj(*((k, _copy(v)) for k, v in node.pairs))
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node


def _mutants(request: Obj) -> Iterator[tuple[str, Obj]]:
    """(name, mutated copy) for each mutation of each place in ``request``."""
    count = sum(1 for _ in _places(request, ""))
    for number in range(count):

        def mutated(change: Any, number: int = number) -> tuple[Any, Obj]:
            root = _copy(request)
            where, container, at, value = list(_places(root, ""))[number]
            change(container, at, value)
            return where, root

        where, container, at, value = list(_places(request, ""))[number]
        edits: dict[str, Any] = {}
        if isinstance(container, Obj):
            key = container.pairs[at][0]
            edits["drop"] = lambda c, i, v: c.pairs.pop(i)
            edits["null"] = lambda c, i, v: c.pairs.__setitem__(i, (c.pairs[i][0], None))
            edits["duplicate"] = lambda c, i, v: c.pairs.insert(i + 1, c.pairs[i])
            edits["duplicate-other"] = lambda c, i, v, k=key: c.pairs.append((k, "x"))
        for name, new in _RETYPED.items():
            edits[f"retype-{name}"] = lambda c, i, v, new=new: _set(c, i, new)
        if isinstance(value, Obj):
            edits["array-form"] = lambda c, i, v: _set(c, i, [w for _, w in v.pairs])
            edits["unknown-member"] = lambda c, i, v: v.pairs.append(("zzUnknown", 1))
        if isinstance(value, str) and not isinstance(value, Raw):
            edits["map-null"] = lambda c, i, v: _set(c, i, Obj((v, None)))
            edits["map-obj"] = lambda c, i, v: _set(c, i, Obj((v, Obj())))
        if isinstance(value, (int, Raw)) and not isinstance(value, bool):
            text = str(value)
            for name, spell in _NUMBER_SPELLINGS.items():
                spelled = Raw(spell(text))
                edits[f"number-{name}"] = lambda c, i, v, s=spelled: _set(c, i, s)
        for name, change in edits.items():
            path, root = mutated(change)
            yield f"{path.lstrip('.')}/{name}", root
        del where


def _set(container: Any, at: int, value: Any) -> None:
    if isinstance(container, Obj):
        container.pairs[at] = (container.pairs[at][0], value)
    else:
        container[at] = value


def input_request_cases() -> Iterator[Case]:
    """Each realistic request, the whole ``inputRequests`` member in odd forms, then the
    mutations of every place in every request."""
    for name, request in REQUESTS.items():
        yield _n(f"ir/{name}", task('{"r1":' + dump(request) + "}"))
        yield _n(
            f"ir/{name}/array-form", task('{"r1":' + dump([v for _, v in request.pairs][-2:]) + "}")
        )
        yield _n(
            f"ir/{name}/status-working", task('{"r1":' + dump(request) + "}", status="working")
        )
    every = "{" + ",".join(f'"{n}":{dump(r)}' for n, r in REQUESTS.items()) + "}"
    yield _n("ir/all-in-one", task(every))
    for form in (
        "null",
        "{}",
        "[]",
        "5",
        '"x"',
        '{"a":null}',
        '{"a":{}}',
        '{"a":[]}',
        '{"a":{"method":"ping"}}',
    ):
        for status in ("input_required", "working", "completed"):
            yield _n(f"ir/value-{form}/{status}", task(form, status=status))
    yield _n("ir/duplicate-key", task('{"a":{"method":"roots/list"},"a":{"method":"ping"}}'))
    yield _n(
        "ir/duplicate-key-valid-last", task('{"a":{"method":"ping"},"a":{"method":"roots/list"}}')
    )
    yield _n("ir/duplicate-member", task('{"a":{"method":"roots/list"}},"inputRequests":{}'))
    for name, request in REQUESTS.items():
        for mutation, root in _mutants(request):
            yield _n(f"ir-mut/{name}/{mutation}", task('{"r1":' + dump(root) + "}"))


def family(case_id: str) -> str:
    """The family of a case id (``enum``, ``tag``, ``ir``, ``ir-mut``)."""
    return case_id.split("/", 1)[0]


#: The fixed list, ids unique (the live differential runs them all).
MODEL_CASES: list[Case] = [*enum_cases(), *tag_cases(), *input_request_cases()]
#: Those kept as golden vectors (``tests/vectors/model.jsonl``): of the ``ir-mut`` family
#: one in ten, picked by the CRC-32 of the id (every kind of mutation stays), to keep the
#: file near 1 MB.
MODEL_VECTOR_CASES: list[Case] = [
    c for c in MODEL_CASES if family(c.id) != "ir-mut" or zlib.crc32(c.id.encode()) % 10 == 0
]
