"""Structure-aware mutations of real frames, for the differential suite.

A seed is a real payload (a line of ``tests/data/corpus``, a golden vector of
``tests/vectors``, or a line of ``tests/data/mutation-seeds``: frames written from
rmcp's model for the members the corpus never carries). It is parsed into a tree that keeps every literal as
it was spelled (strings with their escapes, numbers as written, duplicate keys, member
order); one to three named :data:`OPERATORS` change the tree; the tree is written back
(compact, spaced or with odd whitespace) behind the seed's tag byte. The mutant is then
a :class:`~rmcp_diff.Case` like any other, for the oracle and for both twins.

Every change is recorded as an :class:`Op`: the operator's name, *where* it acted
(``<seed kind>:<path>``, e.g. ``notifications/message:params.level``, array indices as
``[]``) and a detail (``null`` for ``{"info":null}``). The known-disagreement table of
``tests/interop/test_mutations.py`` matches on these.

Everything is deterministic for a seed value (``random.Random``). Used by
``tests/interop/test_mutations.py`` and ``scripts/gen_vectors.py``; no pytest imports here.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from rmcp_cases import EDGE_INTS, EDGE_NUMBERS
from rmcp_diff import DATA, NOTIFICATIONS, READ_RESOURCE, VECTORS, Case, Outcome, read_vectors

# ----------------------------------------------------------------------------- tree


class Str:
    """A JSON string: its text (decoded) and its literal as written (quotes included)."""

    __slots__ = ("literal", "value")

    def __init__(self, value: str, literal: str | None = None) -> None:
        self.value = value
        self.literal = literal if literal is not None else dump_string(value)


class Num:
    """A JSON number, kept as written."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal


class Lit:
    """``true``, ``false`` or ``null``."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal


class Arr:
    """A JSON array."""

    __slots__ = ("items",)

    def __init__(self, items: list[Node]) -> None:
        self.items = items


class Obj:
    """A JSON object: members in order, duplicates kept."""

    __slots__ = ("members",)

    def __init__(self, members: list[tuple[Str, Node]]) -> None:
        self.members = members

    def get(self, name: str) -> Node | None:
        """The value of the first member called ``name``, or None."""
        for key, value in self.members:
            if key.value == name:
                return value
        return None


Node = Str | Num | Lit | Arr | Obj

_SURROGATE = re.compile("[\ud800-\udfff]")


def dump_string(value: str) -> str:
    """The plain literal of ``value``: raw UTF-8, short escapes, lone surrogates as ``\\uXXXX``."""
    text = json.dumps(value, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def clone(node: Node) -> Node:
    """A deep copy (literals are immutable and shared)."""
    if isinstance(node, Arr):
        return Arr([clone(item) for item in node.items])
    if isinstance(node, Obj):
        return Obj([(key, clone(value)) for key, value in node.members])
    return node


class ParseError(ValueError):
    """The text is not JSON this module can keep as a tree."""


_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\.)*"', re.DOTALL)
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
#: Seeds nested deeper than this are left out (Python's own stack, not the oracle's).
MAX_SEED_DEPTH = 200


def parse(text: str) -> Node:
    """A tree of the JSON ``text``, every literal as written. Raises ParseError."""
    node, end = _value(text, _WS.match(text, 0).end(), 0)
    if _WS.match(text, end).end() != len(text):
        raise ParseError(f"trailing text at {end}")
    return node


def _value(text: str, pos: int, depth: int) -> tuple[Node, int]:
    if depth > MAX_SEED_DEPTH:
        raise ParseError("too deep")
    char = text[pos : pos + 1]
    if char == "{":
        members: list[tuple[Str, Node]] = []
        pos = _WS.match(text, pos + 1).end()
        if text[pos : pos + 1] == "}":
            return Obj(members), pos + 1
        while True:
            key, pos = _string(text, pos)
            pos = _WS.match(text, pos).end()
            if text[pos : pos + 1] != ":":
                raise ParseError(f"':' expected at {pos}")
            value, pos = _value(text, _WS.match(text, pos + 1).end(), depth + 1)
            members.append((key, value))
            pos = _WS.match(text, pos).end()
            if text[pos : pos + 1] == "}":
                return Obj(members), pos + 1
            if text[pos : pos + 1] != ",":
                raise ParseError(f"',' or '}}' expected at {pos}")
            pos = _WS.match(text, pos + 1).end()
    if char == "[":
        items: list[Node] = []
        pos = _WS.match(text, pos + 1).end()
        if text[pos : pos + 1] == "]":
            return Arr(items), pos + 1
        while True:
            item, pos = _value(text, pos, depth + 1)
            items.append(item)
            pos = _WS.match(text, pos).end()
            if text[pos : pos + 1] == "]":
                return Arr(items), pos + 1
            if text[pos : pos + 1] != ",":
                raise ParseError(f"',' or ']' expected at {pos}")
            pos = _WS.match(text, pos + 1).end()
    if char == '"':
        return _string(text, pos)
    for literal in ("true", "false", "null"):
        if text.startswith(literal, pos):
            return Lit(literal), pos + len(literal)
    match = _NUMBER.match(text, pos)
    if match is None or match.end() == pos:
        raise ParseError(f"value expected at {pos}")
    return Num(match.group()), match.end()


def _string(text: str, pos: int) -> tuple[Str, int]:
    match = _STRING.match(text, pos)
    if match is None:
        raise ParseError(f"string expected at {pos}")
    literal = match.group()
    try:
        value = json.loads(literal)
    except ValueError as exc:
        raise ParseError(f"bad string {literal[:40]!r}") from exc
    return Str(value, literal), match.end()


#: How a tree is written: ``compact`` (serde_json's own), ``spaced`` (``", "`` and
#: ``": "``, like the corpus), ``odd`` (tabs, newlines and runs of spaces between tokens).
STYLES = ("compact", "spaced", "odd")


def render(node: Node, style: str = "compact", rng: random.Random | None = None) -> str:
    """The JSON text of a tree, every literal as it is kept."""
    out: list[str] = []
    if style == "odd":
        rng = rng or random.Random(0)
        pool = [" ", "\n", "\t", "\r\n", "  ", ""]

        def ws() -> str:
            return rng.choice(pool)

        comma = colon = ""
    else:

        def ws() -> str:
            return ""

        comma, colon = (", ", ": ") if style == "spaced" else (",", ":")
    _render(node, out, ws, comma or ",", colon or ":")
    return "".join(out)


def _render(node: Node, out: list[str], ws: Callable[[], str], comma: str, colon: str) -> None:
    if isinstance(node, Obj):
        out.append("{")
        for index, (key, value) in enumerate(node.members):
            if index:
                out.append(comma)
            out.extend((ws(), key.literal, ws(), colon, ws()))
            _render(value, out, ws, comma, colon)
            out.append(ws())
        out.append("}")
    elif isinstance(node, Arr):
        out.append("[")
        for index, item in enumerate(node.items):
            if index:
                out.append(comma)
            out.append(ws())
            _render(item, out, ws, comma, colon)
            out.append(ws())
        out.append("]")
    else:
        out.append(node.literal)


def height(node: Node) -> int:
    """Containers nested in ``node``, itself included (a scalar: 0, ``[]``: 1)."""
    if isinstance(node, Arr):
        return 1 + max((height(item) for item in node.items), default=0)
    if isinstance(node, Obj):
        return 1 + max((height(value) for _, value in node.members), default=0)
    return 0


# ---------------------------------------------------------------------------- places


@dataclass
class Place:
    """A value in a tree: its path, depth (containers around it) and how to replace it.

    ``parent`` is the Obj or Arr holding it (None for the root) and ``index`` its
    position there; ``key`` is the member's name (None for an array item or the root).
    """

    path: str
    depth: int
    node: Node
    parent: Obj | Arr | None
    index: int
    key: Str | None


def places(root: Node) -> list[Place]:
    """Every value of the tree, root first, in document order."""
    out: list[Place] = []

    def walk(
        node: Node, path: str, depth: int, parent: Obj | Arr | None, index: int, key: Str | None
    ) -> None:
        out.append(Place(path, depth, node, parent, index, key))
        if isinstance(node, Obj):
            for i, (k, value) in enumerate(node.members):
                walk(value, f"{path}.{k.value}" if path else k.value, depth + 1, node, i, k)
        elif isinstance(node, Arr):
            for i, item in enumerate(node.items):
                walk(item, f"{path}[]", depth + 1, node, i, None)

    walk(root, "", 0, None, 0, None)
    return out


class Tree:
    """A mutant being built: the root, which the operators may replace."""

    __slots__ = ("root",)

    def __init__(self, root: Node) -> None:
        self.root = root

    def replace(self, place: Place, node: Node) -> None:
        """Put ``node`` where ``place`` is."""
        if place.parent is None:
            self.root = node
        elif isinstance(place.parent, Obj):
            key, _ = place.parent.members[place.index]
            place.parent.members[place.index] = (key, node)
        else:
            place.parent.items[place.index] = node


def members_of(root: Node) -> list[tuple[Place, Obj]]:
    """``(place, object)`` for every object of the tree."""
    return [(p, p.node) for p in places(root) if isinstance(p.node, Obj)]


# --------------------------------------------------------------------------- operators


@dataclass(frozen=True)
class Op:
    """One applied mutation: operator name, where (``<kind>:<path>``) and a detail."""

    operator: str
    where: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.operator}@{self.where}" + (f" ({self.detail})" if self.detail else "")


#: An operator: (rng, tree) -> (path, detail) of what it changed, or None when it does
#: not apply to this tree.
Operator = Callable[[random.Random, Tree], tuple[str, str] | None]

#: Members that hold one of rmcp's unit enums (LoggingLevel, TaskStatus, CacheScope, the
#: elicitation mode, roles, ...), or a string serde may read as one.
ENUM_MEMBERS = frozenset(
    {
        "level",
        "status",
        "cacheScope",
        "resultType",
        "mode",
        "role",
        "action",
        "type",
        "includeContext",
    }
)
KNOWN_METHODS = (
    "notifications/cancelled",
    "notifications/progress",
    "notifications/message",
    "notifications/resources/updated",
    "notifications/resources/list_changed",
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/subscriptions/acknowledged",
    "notifications/tasks",
    "notifications/tasks/status",
    "notifications/elicitation/complete",
)
OTHER_METHODS = (
    "notifications/initialized",
    "notifications/roots/list_changed",
    "notifications/stderr",
    "x/y",
    "",
    "Notifications/Progress",
    "notifications/progress ",
    "notifications/message/",
    "notifications//message",
    "logging/setLevel",
    "\u00e9/\U0001f600",
)
#: Member names added by ``add_unknown_member``.
UNKNOWN_NAMES = (
    "extra",
    "x",
    "jsonrpc",
    "id",
    "_meta",
    "result",
    "error",
    "inputRequests",
    "nextCursor",
    "annotations",
    "$schema",
    "",
    "__proto__",
    "\u00e9",
)
#: Optional members of rmcp's structs, added as ``null`` by ``null_or_absent``.
OPTIONAL_MEMBERS = (
    "_meta",
    "total",
    "message",
    "logger",
    "reason",
    "requestId",
    "statusMessage",
    "pollInterval",
    "pollIntervalMs",
    "ttl",
    "ttlMs",
    "cacheScope",
    "resultType",
    "mimeType",
    "data",
    "params",
    "result",
    "error",
    "inputRequests",
)
#: serde's field order of rmcp's structs, for the sequence form: the struct is told by
#: the member names it has (the first list containing them all wins).
FIELD_ORDERS = (
    ("method", "params"),
    ("code", "message", "data"),
    ("resultType", "ttlMs", "cacheScope", "contents", "_meta"),
    ("uri", "mimeType", "text", "_meta"),
    ("uri", "mimeType", "blob", "_meta"),
    ("progressToken", "progress", "total", "message", "_meta"),
    ("level", "logger", "data", "_meta"),
    ("requestId", "reason", "_meta"),
    ("toolsListChanged", "promptsListChanged", "resourcesListChanged", "resourceSubscriptions"),
    ("notifications", "_meta"),
)


def _small_value(rng: random.Random) -> Node:
    return rng.choice(
        [
            lambda: Lit("null"),
            lambda: Lit("true"),
            lambda: Num(str(rng.choice([0, 1, -1, 7, 2**53, 2**64]))),
            lambda: Num(rng.choice(["0.5", "1.0", "1e3"])),
            lambda: Str(rng.choice(["", "a", "info", "x/y", "\u00e9"])),
            lambda: Arr([]),
            lambda: Obj([]),
            lambda: Obj([(Str("a"), Num("1"))]),
            lambda: Arr([Num("1"), Str("b")]),
        ]
    )()


def _pick(rng: random.Random, items: Sequence[Any]) -> Any:
    return items[rng.randrange(len(items))] if items else None


def op_enum_map_form(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A string value written as serde's map form of a unit variant: ``"info"`` ->
    ``{"info":null}`` (or ``{}`` / ``[]`` / another value as the content)."""
    strings = [p for p in places(tree.root) if isinstance(p.node, Str)]
    enums = [p for p in strings if p.key is not None and p.key.value in ENUM_MEMBERS]
    place = _pick(rng, enums if enums and rng.random() < 0.8 else strings)
    if place is None:
        return None
    detail, content = rng.choice(
        [
            ("null", Lit("null")),
            ("null", Lit("null")),
            ("{}", Obj([])),
            ("{}", Obj([])),
            ("[]", Arr([])),
            ('""', Str("")),
            ("0", Num("0")),
            ('{"a":1}', Obj([(Str("a"), Num("1"))])),
        ]
    )
    assert isinstance(place.node, Str)
    tree.replace(place, Obj([(place.node, content)]))
    return place.path, detail


def op_move_member(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """One member moved elsewhere in its object (or the object reversed)."""
    objects = [(p, o) for p, o in members_of(tree.root) if len(o.members) >= 2]
    if not objects:
        return None
    place, obj = _pick(rng, objects)
    if rng.random() < 0.2:
        obj.members.reverse()
        return place.path or "$", "reversed"
    source = rng.randrange(len(obj.members))
    member = obj.members.pop(source)
    target = rng.choice([i for i in range(len(obj.members) + 1) if i != source])
    obj.members.insert(target, member)
    return _member_path(place, member[0]), f"{source}->{target}"


def _member_path(place: Place, key: Str) -> str:
    return f"{place.path}.{key.value}" if place.path else key.value


def op_duplicate_member(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A member written twice: the same value, or another one; before or after."""
    objects = [(p, o) for p, o in members_of(tree.root) if o.members]
    if not objects:
        return None
    place, obj = _pick(rng, objects)
    index = rng.randrange(len(obj.members))
    key, value = obj.members[index]
    same = rng.random() < 0.5
    copy = clone(value) if same else _small_value(rng)
    if rng.random() < 0.3:  # the second spelling of the name escaped
        key = Str(key.value, _escape_all(key.value))
    target = rng.choice([index, index + 1, len(obj.members)])
    obj.members.insert(target, (key, copy))
    return _member_path(place, key), "same" if same else "other"


def op_drop_member(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A member left out."""
    objects = [(p, o) for p, o in members_of(tree.root) if o.members]
    if not objects:
        return None
    place, obj = _pick(rng, objects)
    key, _ = obj.members.pop(rng.randrange(len(obj.members)))
    return _member_path(place, key), ""


def _json_type(node: Node) -> str:
    if isinstance(node, Lit):
        return "null" if node.literal == "null" else "bool"
    return {Str: "string", Num: "number", Arr: "array", Obj: "object"}[type(node)]


def _retyped(rng: random.Random, node: Node) -> tuple[str, Node]:
    """``node`` as a value of another JSON type, derived from it where that means
    something (``1`` -> ``"1"``, ``"1"`` -> ``1``, ``true`` -> ``1``, ``v`` -> ``[v]``)."""
    current = _json_type(node)
    kind = rng.choice(
        [k for k in ("string", "number", "bool", "null", "array", "object") if k != current]
    )
    if kind == "string":
        return kind, Str(render(node))
    if kind == "number":
        if isinstance(node, Str) and _NUMBER.fullmatch(node.value):
            return kind, Num(node.value)
        if isinstance(node, Lit) and node.literal == "true":
            return kind, Num("1")
        return kind, Num(rng.choice(["0", "1", "-1", "1.5", "2"]))
    if kind == "bool":
        return kind, Lit(rng.choice(["true", "false"]))
    if kind == "null":
        return kind, Lit("null")
    if kind == "array":
        return kind, rng.choice([Arr([]), Arr([clone(node)])])
    return kind, rng.choice([Obj([]), Obj([(Str("a"), Num("1"))])])


def op_retype_value(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A value of another JSON type (string, number, bool, null, array, object)."""
    candidates = places(tree.root)[1:] or places(tree.root)
    place = _pick(rng, candidates)
    kind, node = _retyped(rng, place.node)
    tree.replace(place, node)
    return place.path or "$", kind


def op_wrap_value(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A value wrapped: in an array (``[v]``, ``[v,v]``), in an object (``{"value":v}``),
    in a one-key map named after the member or the value."""
    candidates = places(tree.root)[1:] or places(tree.root)
    place = _pick(rng, candidates)
    node = place.node
    how = rng.choice(["array", "array", "array2", "object", "map"])
    if how == "array":
        wrapped: Node = Arr([node])
    elif how == "array2":
        wrapped = Arr([node, clone(node)])
    elif how == "object":
        wrapped = Obj([(Str("value"), node)])
    else:
        name = place.key.value if place.key is not None else "0"
        if isinstance(node, Str) and rng.random() < 0.5:
            name = node.value
        wrapped = Obj([(Str(name), node)])
    tree.replace(place, wrapped)
    return place.path or "$", how


def equivalent_spellings(literal: str) -> list[str]:
    """Other spellings of the number ``literal`` with the same decimal value."""
    value = Decimal(literal)
    sign, digits_tuple, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digits_tuple)).lstrip("0") or "0"
    if digits == "0":
        exponent = 0
    minus = "-" if sign else ""
    out = [
        f"{minus}{digits}e{exponent}",
        f"{minus}{digits}E{exponent:+d}",
        f"{minus}{digits}0e{exponent - 1}",
        f"{minus}0.{digits}e{exponent + len(digits)}",
        f"{minus}0.00{digits}e{exponent + len(digits) + 2}",
    ]
    if abs(exponent) <= 40:  # plain decimals: trailing zeros, many digits
        plain = format(value, "f")
        point = "" if "." in plain else "."
        out.extend((plain + point + "00", plain + point + "0" * 22))
    if abs(exponent) <= 40 and value == value.to_integral_value():
        out.append(f"{minus}{int(abs(value))}")
        out.append(f"{minus}{int(abs(value))}.0")
        out.append(f"{minus}{int(abs(value))}0e-1")
    if digits == "0":
        out.extend(["-0", "-0.0", "0e0", "-0e-0", "0.000e5", "0E+0"])
    return [s for s in dict.fromkeys(out) if s != literal and _NUMBER.fullmatch(s)]


#: Numbers of another value that stress a reader: beyond u64/i64, near 2^53, many digits.
OTHER_NUMBERS = (
    [str(i) for i in EDGE_INTS]
    + EDGE_NUMBERS
    + [
        "1.00000000000000000000001",
        "0.99999999999999999999999",
        "123456789012345678901234567890.5",
        "1" + "0" * 40,
        "-" + "9" * 30,
        "4.9e-324",
        "1.7976931348623157e308",
    ]
)


def op_number_spelling(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A number spelled otherwise: the same value (``1`` -> ``1.0``, ``1e0``, ``10e-1``,
    ``-0``, trailing zeros, leading zeros in the fraction), or (one time in four) a value
    at an edge (beyond u64, many digits)."""
    numbers = [p for p in places(tree.root) if isinstance(p.node, Num)]
    place = _pick(rng, numbers)
    if place is None:
        return None
    assert isinstance(place.node, Num)
    spellings = equivalent_spellings(place.node.literal)
    if spellings and rng.random() < 0.75:
        spelled = rng.choice(spellings)
        kind = "same value"
    else:
        spelled = rng.choice(OTHER_NUMBERS)
        kind = "edge value"
    tree.replace(place, Num(spelled))
    return place.path or "$", f"{kind}: {place.node.literal} -> {spelled}"


def _escape_char(char: str, upper: bool) -> str:
    code = ord(char)
    if code > 0xFFFF:
        code -= 0x10000
        pair = (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))
        text = "".join(f"\\u{u:04x}" for u in pair)
    else:
        text = f"\\u{code:04x}"
    return text.upper().replace("\\U", "\\u") if upper else text


def _escape_all(value: str, upper: bool = False) -> str:
    return '"' + "".join(_escape_char(c, upper) for c in value) + '"'


def spell_string(rng: random.Random, value: str) -> tuple[str, str]:
    """``(style, literal)``: another literal for the same text."""
    style = rng.choice(["some-u", "all-u", "upper-hex", "slash", "ascii", "short-as-u"])
    if style == "all-u":
        return style, _escape_all(value)
    if style == "upper-hex":
        return style, _escape_all(value, upper=True)
    if style == "slash":
        return style, dump_string(value).replace("/", "\\/")
    if style == "ascii":
        return style, json.dumps(value, ensure_ascii=True)
    if style == "short-as-u":
        return style, '"' + "".join(
            _escape_char(c, False)
            if c in '"\\\n\t\r\b\f' or ord(c) < 0x20
            else dump_string(c)[1:-1]
            for c in value
        ) + '"'
    return style, '"' + "".join(
        _escape_char(c, False) if rng.random() < 0.4 else dump_string(c)[1:-1] for c in value
    ) + '"'


def op_string_spelling(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A string (a value or a member name) spelled otherwise: ``\\uXXXX`` escapes (upper or
    lower hex), surrogate pairs for astral characters, ``\\/``, ``\\u0022`` for a quote."""
    values = [p for p in places(tree.root) if isinstance(p.node, Str) and p.node.value]
    keys = [
        (p, i) for p, o in members_of(tree.root) for i, (k, _) in enumerate(o.members) if k.value
    ]
    if keys and (not values or rng.random() < 0.4):
        place, index = _pick(rng, keys)
        assert isinstance(place.node, Obj)
        key, value = place.node.members[index]
        style, literal = spell_string(rng, key.value)
        if literal == key.literal:
            style, literal = "all-u", _escape_all(key.value)
        place.node.members[index] = (Str(key.value, literal), value)
        return _member_path(place, key) + " (name)", style
    place = _pick(rng, values)
    if place is None:
        return None
    assert isinstance(place.node, Str)
    style, literal = spell_string(rng, place.node.value)
    if literal == place.node.literal:
        style, literal = "all-u", _escape_all(place.node.value)
    tree.replace(place, Str(place.node.value, literal))
    return place.path or "$", style


#: Total depths ``nest_deeper`` aims at: serde_json's limit is 128 (127 levels pass).
NEST_TARGETS = (100, 126, 127, 127, 128, 128, 129, 130)


def op_nest_deeper(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A value wrapped in arrays (or ``{"a":...}`` objects) until the body is nested
    about as deep as serde_json allows (126 to 130 levels)."""
    candidates = places(tree.root)
    place = _pick(rng, candidates)
    target = rng.choice(NEST_TARGETS)
    count = target - place.depth - height(place.node)
    if count <= 0:
        return None
    node = place.node
    kind = rng.choice(["arrays", "arrays", "objects"])
    for _ in range(count):
        node = Arr([node]) if kind == "arrays" else Obj([(Str("a"), node)])
    tree.replace(place, node)
    return place.path or "$", f"{kind} to depth {target}"


def op_array_form(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """An object written as serde's sequence form of a struct: its values in field order
    (``[method, params]``, ``[code, message, data]``, ...), or in the order written."""
    objects = [(p, o) for p, o in members_of(tree.root) if o.members]
    if not objects:
        return None
    root = [(p, o) for p, o in objects if p.parent is None]
    place, obj = _pick(rng, root if root and rng.random() < 0.5 else objects)
    names = [k.value for k, _ in obj.members]
    order = next((f for f in FIELD_ORDERS if set(names) <= set(f)), None)
    if order is not None and rng.random() < 0.8:
        present = [n for n in order if n in names]
        last = max((order.index(n) for n in present), default=-1)
        values = [obj.get(n) if n in names else Lit("null") for n in order[: last + 1]]
        how = "field order"
    else:
        values = [v for _, v in obj.members]
        how = "written order"
    if values and rng.random() < 0.15:
        values = values[:-1]
        how += ", last left out"
    tree.replace(place, Arr([v for v in values if v is not None]))
    return place.path or "$", how


def op_add_unknown_member(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A member no struct declares (or one declared elsewhere: ``jsonrpc``, ``id``,
    ``result``, ...), with some value, anywhere in an object."""
    objects = members_of(tree.root)
    if not objects:
        return None
    place, obj = _pick(rng, objects)
    name = rng.choice(UNKNOWN_NAMES)
    obj.members.insert(rng.randrange(len(obj.members) + 1), (Str(name), _small_value(rng)))
    return _member_path(place, Str(name)), ""


def op_null_or_absent(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """``null`` instead of a value, a ``null`` member dropped, or an optional member
    added as ``null``."""
    objects = members_of(tree.root)
    if not objects:
        return None
    place, obj = _pick(rng, objects)
    if obj.members and rng.random() < 0.6:
        index = rng.randrange(len(obj.members))
        key, value = obj.members[index]
        if isinstance(value, Lit) and value.literal == "null":
            obj.members.pop(index)
            return _member_path(place, key), "null -> absent"
        obj.members[index] = (key, Lit("null"))
        return _member_path(place, key), "value -> null"
    names = {k.value for k, _ in obj.members}
    missing = [n for n in OPTIONAL_MEMBERS if n not in names]
    name = _pick(rng, missing)
    if name is None:
        return None
    obj.members.insert(rng.randrange(len(obj.members) + 1), (Str(name), Lit("null")))
    return _member_path(place, Str(name)), "absent -> null"


def op_change_method(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """The notification's ``method`` changed to another known or an unknown one."""
    root = tree.root
    if isinstance(root, Obj):
        slots = [i for i, (k, v) in enumerate(root.members) if k.value == "method"]
        if not slots:
            return None
        index = rng.choice(slots)
        method = rng.choice(KNOWN_METHODS if rng.random() < 0.7 else OTHER_METHODS)
        root.members[index] = (root.members[index][0], Str(method))
        return "method", method
    if isinstance(root, Arr) and root.items and isinstance(root.items[0], Str):
        method = rng.choice(KNOWN_METHODS + OTHER_METHODS)
        root.items[0] = Str(method)
        return "[0]", method
    return None


def _camel_to_snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def _snake_to_camel(name: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name)


def renamed(rng: random.Random, name: str) -> tuple[str, str]:
    """``(how, new name)``: ``name`` in another case."""
    options = [
        ("snake_case", _camel_to_snake(name)),
        ("camelCase", _snake_to_camel(name)),
        ("PascalCase", name[:1].upper() + name[1:]),
        ("UPPER", name.upper()),
        ("lower", name.lower()),
        ("kebab-case", _camel_to_snake(name).replace("_", "-")),
    ]
    options = [(how, new) for how, new in options if new != name]
    return rng.choice(options) if options else ("same", name)


def op_rename_case(rng: random.Random, tree: Tree) -> tuple[str, str] | None:
    """A member's name in another case: ``progressToken`` -> ``progress_token``,
    ``ProgressToken``, ``PROGRESSTOKEN``, ``progresstoken``, ..."""
    keys = [
        (p, i)
        for p, o in members_of(tree.root)
        for i, (k, _) in enumerate(o.members)
        if any(c.isalpha() for c in k.value)
    ]
    if not keys:
        return None
    place, index = _pick(rng, keys)
    assert isinstance(place.node, Obj)
    key, value = place.node.members[index]
    how, name = renamed(rng, key.value)
    if name == key.value:
        return None
    place.node.members[index] = (Str(name), value)
    return _member_path(place, key), how


#: Every operator, by name (the names the findings, the known table and the docs use).
OPERATORS: dict[str, Operator] = {
    "enum_map_form": op_enum_map_form,
    "move_member": op_move_member,
    "duplicate_member": op_duplicate_member,
    "drop_member": op_drop_member,
    "retype_value": op_retype_value,
    "wrap_value": op_wrap_value,
    "number_spelling": op_number_spelling,
    "string_spelling": op_string_spelling,
    "nest_deeper": op_nest_deeper,
    "array_form": op_array_form,
    "add_unknown_member": op_add_unknown_member,
    "null_or_absent": op_null_or_absent,
    "change_method": op_change_method,
    "rename_case": op_rename_case,
}


# ------------------------------------------------------------------------------ seeds


@dataclass(frozen=True)
class Seed:
    """A real payload, parsed: where it came from, its channel, tag, kind and tree.

    ``kind`` names what the body is, for :attr:`Op.where`: the notification's method,
    ``ReadResourceResult`` or ``ErrorData`` (``?`` when the body is something else).
    """

    id: str
    channel: str
    tag: int
    kind: str
    tree: Node
    accepted: bool


#: Frames of the shapes the corpus never carries (see its README), in the corpus's format.
EXTRA_SEEDS = DATA / "mutation-seeds"

#: Seeds longer than this are left out: mutating a 2 MB blob 20,000 times says nothing
#: the long-blob cases do not.
MAX_SEED_BYTES = 16 * 1024


def _kind(channel: str, tag: int, tree: Node) -> str:
    if tag == 1:
        return "ErrorData"
    if channel == READ_RESOURCE:
        return "ReadResourceResult"
    method = tree.get("method") if isinstance(tree, Obj) else None
    if method is None and isinstance(tree, Arr) and tree.items:
        method = tree.items[0]
    return method.value if isinstance(method, Str) else "?"


def seed_from(case_id: str, channel: str, payload: bytes, accepted: bool) -> Seed | None:
    """A seed of one payload, or None when it is not a tag-0/1 frame with a JSON body."""
    if len(payload) < 2 or payload[0] > 1 or len(payload) > MAX_SEED_BYTES:
        return None
    try:
        tree = parse(payload[1:].decode("utf-8"))
    except (UnicodeDecodeError, ParseError, RecursionError):
        return None
    return Seed(case_id, channel, payload[0], _kind(channel, payload[0], tree), tree, accepted)


def seeds(vector_files: Sequence[Path] | None = None) -> list[Seed]:
    """The seeds: every distinct tag-0/1 JSON payload of the golden vectors (the corpus,
    the hostile and the generated cases; ``mutations.jsonl`` left out) and the extra
    seeds, in a fixed order."""
    files = vector_files if vector_files is not None else sorted(VECTORS.glob("*.jsonl"))
    out: list[Seed] = []
    seen: set[tuple[str, bytes]] = set()
    for path in files:
        if path.name == "mutations.jsonl":
            continue
        for case, rmcp in read_vectors(path):
            if (case.channel, case.payload) in seen:
                continue
            seen.add((case.channel, case.payload))
            seed = seed_from(case.id, case.channel, case.payload, rmcp.verdict == "ok")
            if seed is not None:
                out.append(seed)
    for path in sorted(EXTRA_SEEDS.glob("*.jsonl")):
        channel = NOTIFICATIONS if path.name == "notifications.jsonl" else READ_RESOURCE
        for number, line in enumerate(path.read_bytes().splitlines(), 1):
            seed = seed_from(f"extra/{path.name}:{number}", channel, b"\x00" + line, True)
            if seed is None:
                raise ValueError(f"{path}:{number} is not a seed")
            out.append(seed)
    return out


# ---------------------------------------------------------------------------- mutants


@dataclass(frozen=True)
class Mutant:
    """A mutated seed: the case to judge, the seed's id and the operations applied."""

    case: Case
    seed: str
    ops: tuple[Op, ...] = field(default=())

    @property
    def operators(self) -> frozenset[str]:
        """The names of the operators applied."""
        return frozenset(op.operator for op in self.ops)


#: Id prefixes of the seeds that are real traffic (or written as real traffic would be).
REAL_SEEDS = ("corpus/", "edge-cases/", "extra/")

#: How many operators one mutant gets, with weights: mostly one, so that a disagreement
#: names its operator.
_OP_COUNTS = (1, 1, 1, 1, 1, 1, 2, 2, 2, 3)


def mutate(
    rng: random.Random, seed: Seed, operators: Sequence[str] | None = None
) -> tuple[bytes, tuple[Op, ...]]:
    """One mutant of ``seed``: ``(payload, ops)`` (``ops`` empty when nothing applied)."""
    tree = Tree(clone(seed.tree))
    names = list(operators) if operators is not None else list(OPERATORS)
    wanted = rng.choice(_OP_COUNTS) if operators is None else len(names)
    ops: list[Op] = []
    attempts = 0
    while len(ops) < wanted and attempts < 12:
        attempts += 1
        name = rng.choice(names) if operators is None else names[len(ops)]
        changed = OPERATORS[name](rng, tree)
        if changed is not None:
            path, detail = changed
            ops.append(Op(name, f"{seed.kind}:{path}", detail))
        elif operators is not None:
            break
    style = rng.choice(STYLES[:1] * 6 + STYLES[1:2] * 3 + STYLES[2:])
    body = render(tree.root, style, rng)
    return bytes([seed.tag]) + body.encode("utf-8", "surrogatepass"), tuple(ops)


def mutants(count: int, seed_value: int, pool: Sequence[Seed] | None = None) -> list[Mutant]:
    """``count`` distinct mutants (by channel and payload), deterministic for ``seed_value``.

    The seed is real traffic (the corpus and the extra seeds) one time in three, another
    payload rmcp accepts about one in two, one it rejects one in five; each mutant gets one
    operator (six times in ten), two or three, chosen uniformly.
    """
    pool = list(pool) if pool is not None else seeds()
    real = [s for s in pool if s.accepted and s.id.startswith(REAL_SEEDS)]
    accepted = [s for s in pool if s.accepted and not s.id.startswith(REAL_SEEDS)] or real
    rejected = [s for s in pool if not s.accepted] or accepted
    rng = random.Random(seed_value)
    out: list[Mutant] = []
    seen: set[tuple[str, bytes]] = set()
    attempts = 0
    while len(out) < count and attempts < count * 5:
        attempts += 1
        roll = rng.random()
        seed = rng.choice(real if roll < 0.35 else accepted if roll < 0.8 else rejected)
        payload, ops = mutate(rng, seed)
        if not ops or (seed.channel, payload) in seen:
            continue
        seen.add((seed.channel, payload))
        out.append(Mutant(Case(f"mutation/{len(out)}", seed.channel, payload), seed.id, ops))
    return out


def directed(
    operator: str, per_seed: int, seed_value: int, pool: Sequence[Seed] | None = None
) -> list[Mutant]:
    """Mutants of ``operator`` alone: ``per_seed`` tries on every real seed (corpus and
    extra seeds) and every other seed rmcp accepts, distinct, named
    ``mutation/<operator>/<n>``."""
    pool = [s for s in (pool if pool is not None else seeds()) if s.accepted]
    rng = random.Random(seed_value)
    out: list[Mutant] = []
    seen: set[tuple[str, bytes]] = set()
    for seed in pool:
        for _ in range(per_seed):
            payload, ops = mutate(rng, seed, [operator])
            if ops and (seed.channel, payload) not in seen:
                seen.add((seed.channel, payload))
                case = Case(f"mutation/{operator}/{len(out)}", seed.channel, payload)
                out.append(Mutant(case, seed.id, ops))
    return out


# --------------------------------------------------------------------- vectors of these


def mutation_fields(mutant: Mutant) -> dict[str, Any]:
    """The members a mutation vector adds to a golden vector: the seed and the ops."""
    return {"seed": mutant.seed, "ops": [[o.operator, o.where, o.detail] for o in mutant.ops]}


def read_mutation_vectors(path: Path) -> Iterator[tuple[Mutant, Outcome]]:
    """The (mutant, rmcp outcome) pairs of a mutation vector file."""
    with path.open(encoding="utf-8") as fh:
        extras = [json.loads(line) for line in fh if line.strip()]
    for (case, rmcp), line in zip(read_vectors(path), extras, strict=True):
        ops = tuple(Op(*op) for op in line["ops"])
        yield Mutant(case, line["seed"], ops), rmcp


def representative(
    pairs: Sequence[tuple[Mutant, Outcome]], limit: int
) -> list[tuple[Mutant, Outcome]]:
    """About ``limit`` mutants spread over every operator, verdict and variant: taken in
    turn from each (first operator, verdict, variant) bucket, in their order."""
    buckets: dict[tuple[str, str, str | None], list[tuple[Mutant, Outcome]]] = {}
    for mutant, rmcp in pairs:
        key = (mutant.ops[0].operator, rmcp.verdict, rmcp.variant)
        buckets.setdefault(key, []).append((mutant, rmcp))
    chosen: list[tuple[Mutant, Outcome]] = []
    depth = 0
    while len(chosen) < limit and any(len(b) > depth for b in buckets.values()):
        for key in sorted(buckets, key=lambda k: (k[0], k[1], k[2] or "")):
            if len(buckets[key]) > depth and len(chosen) < limit:
                chosen.append(buckets[key][depth])
        depth += 1
    order = {id(m): i for i, (m, _) in enumerate(pairs)}
    chosen.sort(key=lambda pair: order[id(pair[0])])
    return chosen


# ------------------------------------------------------------------------ judging


@dataclass(frozen=True)
class Known:
    """A class of disagreements known and left for the codec to fix: mutants with an
    operation of ``operator`` (``*``: any) whose ``where`` matches the regex ``where``,
    differing from rmcp in ``disagreement`` (``verdict``, ``variant``, ``bytes``, as
    ``rmcp_diff.disagreement`` words it; ``*``: any)."""

    name: str
    operator: str
    where: str
    disagreement: str = "*"

    def matches(self, finding: Finding) -> bool:
        """Whether ``finding`` is of this class."""
        if self.disagreement != "*" and not any(
            p.startswith(self.disagreement + ":") for p in finding.problems.values()
        ):
            return False
        return any(
            (self.operator in ("*", op.operator)) and re.search(self.where, op.where)
            for op in finding.mutant.ops
        )


def classify(finding: Finding, known: Sequence[Known]) -> str | None:
    """The name of the first known class ``finding`` falls in, or None."""
    return next((k.name for k in known if k.matches(finding)), None)


#: ``(implementation name, module)`` pairs judged; a missing module (None) is skipped.
Twins = Sequence[tuple[str, Any]]


@dataclass
class Finding:
    """A mutant on which one implementation, for one payload type, differs from rmcp."""

    mutant: Mutant
    rmcp: Outcome
    #: ``"<implementation>/<payload type>"`` -> our outcome, for each that disagrees.
    ours: dict[str, Outcome]
    #: ``"<implementation>/<payload type>"`` -> the difference, as ``disagreement`` says.
    problems: dict[str, str]

    def signature(self) -> tuple[Any, ...]:
        """What a smaller mutant must keep to show the same disagreement."""
        return (
            self.rmcp.verdict,
            self.rmcp.variant,
            tuple(sorted((k, o.verdict, o.variant) for k, o in self.ours.items())),
        )


def judge(pairs: Sequence[tuple[Mutant, Outcome]], twins: Twins) -> list[Finding]:
    """Every mutant where an implementation, for any payload type, disagrees with rmcp."""
    from rmcp_diff import PAYLOAD_TYPES, disagreement, ours

    found = []
    for mutant, rmcp in pairs:
        outcomes: dict[str, Outcome] = {}
        problems: dict[str, str] = {}
        for name, frames in twins:
            if frames is None:
                continue
            for payload_type in PAYLOAD_TYPES:
                mine = ours(frames, mutant.case, payload_type)
                problem = disagreement(mine, rmcp)
                if problem is not None:
                    outcomes[f"{name}/{payload_type}"] = mine
                    problems[f"{name}/{payload_type}"] = problem
        if problems:
            found.append(Finding(mutant, rmcp, outcomes, problems))
    return found


def _reductions(root: Node) -> list[str]:
    """Bodies one step smaller than ``root``: a member or an item left out, a container
    emptied or replaced by its only child, a string shortened or spelled plainly, a long
    number shortened."""
    out = [render(root)]
    for place in places(root):
        node = place.node

        def swap(new: Node, place: Place = place) -> None:
            tree = Tree(root)
            tree.replace(place, new)
            out.append(render(tree.root))
            tree.replace(place, place.node)

        if isinstance(node, Obj):
            for index in range(len(node.members)):
                swap(Obj(node.members[:index] + node.members[index + 1 :]))
            for index, (key, value) in enumerate(node.members):
                if key.literal != dump_string(key.value):
                    members = list(node.members)
                    members[index] = (Str(key.value), value)
                    swap(Obj(members))
            if place.parent is not None and node.members:
                swap(Obj([]))
            if place.parent is not None and len(node.members) == 1:
                swap(node.members[0][1])
        elif isinstance(node, Arr):
            for index in range(len(node.items)):
                swap(Arr(node.items[:index] + node.items[index + 1 :]))
            if place.parent is not None and node.items:
                swap(Arr([]))
            if len(node.items) == 1:
                swap(node.items[0])
        elif isinstance(node, Str):
            if node.literal != dump_string(node.value):
                swap(Str(node.value))
            if len(node.value) > 1:
                swap(Str(node.value[: len(node.value) // 2]))
        elif isinstance(node, Num) and len(node.literal) > 1:
            swap(Num("1"))
    return out


def minimize(
    findings: Sequence[Finding],
    twins: Twins,
    oracle: Callable[[list[Case]], list[Outcome]],
    rounds: int = 40,
    per_round: int = 200,
) -> list[Finding]:
    """Each finding made as small as a greedy search can while it keeps its
    :meth:`Finding.signature`: every round, the single-step reductions of every finding
    go to the oracle in one batch, and each finding becomes its shortest reduction that
    still disagrees the same way."""
    current = list(findings)
    for _ in range(rounds):
        batch: list[tuple[int, Mutant]] = []
        for index, finding in enumerate(current):
            case = finding.mutant.case
            try:
                root = parse(case.payload[1:].decode("utf-8"))
            except (UnicodeDecodeError, ParseError, RecursionError):
                continue
            payloads = sorted(
                {
                    bytes([case.payload[0]]) + b.encode("utf-8", "surrogatepass")
                    for b in _reductions(root)
                },
                key=lambda p: (len(p), p),
            )
            mutant = finding.mutant
            batch.extend(
                (index, Mutant(Case(case.id, case.channel, payload), mutant.seed, mutant.ops))
                for payload in payloads[:per_round]
                if len(payload) < len(case.payload)
            )
        if not batch:
            break
        verdicts = oracle([m.case for _, m in batch])
        progressed = False
        taken: set[int] = set()
        for (index, mutant), rmcp in zip(batch, verdicts, strict=True):
            if index in taken:
                continue
            smaller = judge([(mutant, rmcp)], twins)
            if smaller and smaller[0].signature() == current[index].signature():
                current[index] = smaller[0]
                taken.add(index)
                progressed = True
        if not progressed:
            break
    return current
