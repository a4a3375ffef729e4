"""Repeated keys whose first value is bad, at every free-form and typed position.

serde_json reads every value of an object, a repeated key's first one too, before
``Map`` keeps the last (and a derived struct rejects the repeat): a bad first value
rejects the body wherever serde reads it. Where serde skips a member unread
(``IgnoredAny``: the members ``ReadResourceResult`` and ``ErrorData`` do not have),
only its syntax is checked. Each case here puts ``"k":BAD,"k":GOOD`` (the second key
maybe spelt with escapes) at one position of a body: :data:`POSITIONS` names them,
:data:`BAD` the bad values, :data:`KEYS` the spellings. :func:`repeated_cases` gives
every combination (the oracle's cases), :func:`repeated_case` one drawn by hypothesis.

No pytest imports here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from hypothesis import strategies as st
from rmcp_diff import CHANNELS, NOTIFICATIONS, READ_RESOURCE, Case

#: Where the repeated member goes: the name, the channel (None: an ``ErrorData``, tag 1,
#: on both), and the body around it (``@`` is the member pair's place). The names
#: ``result, ...`` and ``error, ...`` are members serde skips through ``IgnoredAny``.
POSITIONS: dict[str, tuple[str | None, str]] = {
    # free-form: custom params, at every depth, and their _meta
    "custom params": (NOTIFICATIONS, '{"method":"x","params":{@}}'),
    "custom params, nested": (NOTIFICATIONS, '{"method":"x","params":{"a":{"b":{@}}}}'),
    "custom params, in an array": (NOTIFICATIONS, '{"method":"x","params":{"a":[1,{@}]}}'),
    "custom _meta": (NOTIFICATIONS, '{"method":"x","params":{"_meta":{@}}}'),
    "custom, top level": (NOTIFICATIONS, '{"method":"x","params":{},@}'),
    # typed params: an unknown member, a typed member, _meta, free-form members
    "progress, unknown member": (
        NOTIFICATIONS,
        '{"method":"notifications/progress","params":{"progressToken":1,"progress":1,@}}',
    ),
    "progress, typed member": (
        NOTIFICATIONS,
        '{"method":"notifications/progress","params":{"progressToken":1,@}}',
    ),
    "progress _meta": (
        NOTIFICATIONS,
        (
            '{"method":"notifications/progress","params":{"progressToken":1,"progress":1,'
            '"_meta":{@}}}'
        ),
    ),
    "progress, top level": (
        NOTIFICATIONS,
        '{"method":"notifications/progress","params":{"progressToken":1,"progress":1},@}',
    ),
    "logging data": (
        NOTIFICATIONS,
        '{"method":"notifications/message","params":{"level":"info","data":{@}}}',
    ),
    "logging data, deep": (
        NOTIFICATIONS,
        ('{"method":"notifications/message","params":{"level":"info","data":[[{"a":[{@}]}]]}}'),
    ),
    "logging, unknown member": (
        NOTIFICATIONS,
        '{"method":"notifications/message","params":{"level":"info","data":1,@}}',
    ),
    "task result": (
        NOTIFICATIONS,
        (
            '{"method":"notifications/tasks","params":{"taskId":"t","status":"completed",'
            '"createdAt":"c","lastUpdatedAt":"u","ttlMs":null,"result":{@}}}'
        ),
    ),
    "task error, nested": (
        NOTIFICATIONS,
        (
            '{"method":"notifications/tasks","params":{"taskId":"t","status":"failed",'
            '"createdAt":"c","lastUpdatedAt":"u","ttlMs":null,"error":{"e":{@}}}}'
        ),
    ),
    "cancelled, unknown member": (
        NOTIFICATIONS,
        '{"method":"notifications/cancelled","params":{"requestId":1,@}}',
    ),
    "list changed params": (
        NOTIFICATIONS,
        '{"method":"notifications/tools/list_changed","params":{@}}',
    ),
    # ReadResourceResult: its items are an untagged enum (buffered), its own members direct
    "result item": (READ_RESOURCE, '{"contents":[{"uri":"u","text":"t",@}]}'),
    "result item _meta": (READ_RESOURCE, '{"contents":[{"uri":"u","blob":"","_meta":{@}}]}'),
    "result _meta": (READ_RESOURCE, '{"contents":[],"_meta":{@}}'),
    "result, unknown member": (READ_RESOURCE, '{"contents":[],"zz":{@}}'),
    "result, top level": (READ_RESOURCE, '{"contents":[],@}'),
    # ErrorData: data is a Value; the members it does not have are skipped
    "error data": (None, '{"code":1,"message":"m","data":{@}}'),
    "error data, nested": (None, '{"code":1,"message":"m","data":[{"a":{@}}]}'),
    "error, unknown member": (None, '{"code":1,"message":"m","zz":{@}}'),
    "error, top level": (None, '{"code":1,"message":"m",@}'),
}

#: Bad first values, by the kind of badness serde_json finds in them.
BAD: dict[str, bytes] = {
    "lone lead surrogate": b'"\\ud800"',
    "lone lead surrogate, then text": b'"\\ud800x"',
    "lone trail surrogate": b'"\\udfffx"',
    "lead then a non-trail escape": b'"\\ud800\\u0041"',
    "lead then another escape": b'"\\udbff\\n"',
    "surrogate deep in the value": b'{"x":[1,"\\ud800"]}',
    "surrogate in a key": b'{"\\udc00":1}',
    "invalid UTF-8": b'"\xff"',
    "overlong UTF-8": b'"\xc0\xaf"',
    "encoded surrogate": b'"\xed\xa0\x80"',
    "bad escape": b'"\\q"',
    "control character": b'"a\x01b"',
    "number out of range": b"1e400",
    "negative number out of range": b"-1e400",
    "number out of range, nested": b'[1,{"x":-2e308}]',
    "nested too deeply": b"[" * 128 + b"]" * 128,
    # the first level that serde_json refuses, where the member sits (see _nested)
    "nested just too deeply": b"",
    # and, for the boundary's other side, the deepest it reads (not bad: rmcp reads it)
    "nested to the limit": b"",
}

#: How the two keys are spelt: the same, or equal only after unescaping (the first
#: letter as a ``\\u`` escape in the second key, or in the first, upper-case hex).
KEYS: dict[str, Callable[[str], tuple[str, str]]] = {
    "same": lambda name: (name, name),
    "escaped": lambda name: (name, f"\\u{ord(name[0]):04x}{name[1:]}"),
    "escaped first": lambda name: (f"\\u{ord(name[0]):04X}{name[1:]}", name),
}

#: What the repeated member keeps last.
GOOD: tuple[bytes, ...] = (b"1", b'"ok"')


def _channels(channel: str | None) -> tuple[tuple[str, int], ...]:
    return ((channel, 0),) if channel is not None else tuple((c, 1) for c in CHANNELS)


def repeated_body(position: str, bad: str, keys: str, good: bytes, typed: bool) -> bytes:
    """The body with ``"k":BAD,"k":GOOD`` at ``position``.

    ``typed``: a typed member's name (``progress``) instead of ``k`` where the position
    is one; the second key's spelling per ``keys``.
    """
    name = "progress" if typed and position == "progress, typed member" else "k"
    first, second = (f'"{key}"'.encode() for key in KEYS[keys](name))
    template = POSITIONS[position][1]
    value = BAD[bad] or _nested(template, bad == "nested just too deeply")
    pair = first + b":" + value + b"," + second + b":" + good
    return template.encode().replace(b"@", pair)


def _nested(template: str, too_deep: bool) -> bytes:
    """Arrays nested up to serde_json's limit (128 levels fail) at the ``@`` of ``template``.

    The templates hold no bracket inside a string: the levels open at ``@`` are counted.
    """
    before = template[: template.index("@")]
    open_levels = before.count("{") + before.count("[") - before.count("}") - before.count("]")
    levels = 128 - open_levels - (0 if too_deep else 1)
    return b"[" * levels + b"]" * levels


def repeated_cases() -> Iterator[Case]:
    """Every position, bad value and key spelling (``GOOD`` alternating), on its channels."""
    for n, (position, (channel, _)) in enumerate(POSITIONS.items()):
        for m, bad in enumerate(BAD):
            for keys in KEYS:
                good = GOOD[(n + m) % len(GOOD)]
                body = repeated_body(position, bad, keys, good, typed=True)
                for on, tag in _channels(channel):
                    yield Case(f"repeated/{position}/{bad}/{keys}@{on}", on, bytes((tag,)) + body)


#: The bad values whose syntax is wrong: serde rejects them even where it skips them.
SYNTAX = frozenset({"bad escape", "control character"})


def rmcp_accepts(position: str, bad: str) -> bool:
    """Whether rmcp reads a body of ``position`` whose repeated key's first value is ``bad``.

    Serde reads every value, a repeated key's first one too, except where it skips a
    member through ``IgnoredAny`` (syntax only: no UTF-8, surrogate, range or depth).
    """
    skipped = position.startswith(("result, ", "error, "))
    return bad == "nested to the limit" or (skipped and bad not in SYNTAX)


@st.composite
def repeated_case(draw: Callable) -> tuple[Case, bool]:
    """One case of :func:`repeated_cases`' kind, drawn, and :func:`rmcp_accepts`' verdict.

    A typed name or not; a bad value that is not about depth may sit inside up to three
    arrays or objects (serde reads them all the same).
    """
    position = draw(st.sampled_from(sorted(POSITIONS)))
    bad = draw(st.sampled_from(sorted(BAD)))
    keys = draw(st.sampled_from(sorted(KEYS)))
    good = draw(st.sampled_from(GOOD))
    body = repeated_body(position, bad, keys, good, typed=draw(st.booleans()))
    if BAD[bad]:
        for wrap in draw(st.lists(st.sampled_from((b"[1,@]", b'{"w":@}', b"[@]")), max_size=3)):
            body = body.replace(BAD[bad], wrap.replace(b"@", BAD[bad]), 1)
    channel, tag = draw(st.sampled_from(_channels(POSITIONS[position][0])))
    case = Case(f"repeated/{position}/{bad}/{keys}", channel, bytes((tag,)) + body)
    return case, rmcp_accepts(position, bad)


__all__ = [
    "BAD",
    "GOOD",
    "KEYS",
    "POSITIONS",
    "SYNTAX",
    "repeated_case",
    "repeated_cases",
    "rmcp_accepts",
]
