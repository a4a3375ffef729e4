"""What each implementation of the matrix runs on a case: ``(function, argument)`` pairs.

* ``compiled``  -- ``diverge_frames._frames_c`` on the whole payload (tag byte + JSON);
* ``python``    -- ``diverge_frames._frames_py`` on the whole payload;
* ``msgspec``   -- the floor: a minimal msgspec ``Struct`` of each frame's shape
  (:mod:`benchmarks.minimal`: the members of that one type, nothing else), its
  ``Decoder`` and ``msgspec.json.encode`` on the body;
* ``msgspec (ours)`` -- the msgspec ``Decoder`` / ``Encoder`` our code uses
  internally, alone, on the body (no tag byte, no fallback, no conversion). For an
  unknown-method notification it decodes with ``CustomNotification``, the shape such a
  body ends up as; for a result, with the private wire shape the hot path decodes
  before it picks text or blob per item (what the speed guard's small-frame limits are
  taken against);
* ``mcp-types`` -- what a user would pick instead: the pydantic models of PyPI ``mcp``
  (``mcp.types``, or the ``mcp-types`` package it re-exports): ``validate_json`` /
  ``model_dump_json(by_alias=True, exclude_none=True)`` on the body;
* ``orjson``    -- ``orjson.loads`` / ``orjson.dumps`` to and from plain dicts, on the body;
* ``memcpy``    -- a long text's bandwidth floor, in the text section only: the whole
  payload copied into a buffer of its size (one slice assignment, one ``memcpy``), for
  decode and encode alike;
* ``utf-8 decode`` -- in the text section, decode only: CPython's UTF-8 decoder
  (``bytes.decode``) on the long string's raw JSON alone (between its quotes): what
  building that ``str`` costs any Python decoder (:data:`BASELINES`: neither is a
  codec, both are left out of :data:`PEERS`).

A built case (:attr:`~benchmarks.cases.Case.built`) is encoded only: ours the
``ProgressNotification`` built by the constructors (:func:`benchmarks.cases.
built_value`), mcp-types its ``ProgressNotification`` built the same way, orjson the
dict, each with ints or floats as the case says; the minimal struct is built with
floats in both (built with ints, msgspec writes ``1`` where rmcp writes ``1.0``).

(rmcp, the Rust reference, runs in its own process: :mod:`benchmarks.rmcp`.)

The other libraries get the body already split from its tag byte, which only flatters
them. ``mcp`` and ``orjson`` are optional: a missing one leaves its column empty. For a
fresh case (:attr:`~benchmarks.cases.Case.fresh`) each decode is given a new ``bytes``
copy of its input, made inside the timed call, and each encode a value fresh from that
implementation's own decode (:class:`~benchmarks.timing.Fresh`: made before the timed
calls; orjson's from ``orjson.loads``, msgspec's and the pure twin's from the pure
twin's decode): no str in it has been encoded before (none holds its UTF-8 yet), as a
relay forwards what it has just read.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from diverge_frames import _frames_py, _wire
from diverge_frames import types as t

from . import minimal
from .cases import Case, built_value, long_string
from .timing import Fresh

try:
    from diverge_frames import _frames_c
except ImportError:  # pure-Python install
    _frames_c = None

__all__ = [
    "HAS_COMPILED",
    "Pairs",
    "OURS",
    "PEERS",
    "BASELINES",
    "FLOOR",
    "OURS_FLOOR",
    "REFERENCE",
    "ops",
    "twin",
    "mcp_types",
    "orjson",
]

#: Whether the compiled extension (``_frames_c``) imported.
HAS_COMPILED = _frames_c is not None
#: Our two twins, by column name.
OURS = ("compiled", "python")
#: The Python implementations in column order (rmcp's columns come after them).
PEERS = ("compiled", "python", "msgspec", "msgspec (ours)", "mcp-types", "orjson")
#: Columns that are not codecs: what the matrix times beside them, where it applies.
BASELINES = ("memcpy", "utf-8 decode")
#: The floor compiled's time is compared with (a minimal Struct of each shape), the
#: msgspec of our own types beside it, and what every other time is compared with.
FLOOR = "msgspec"
OURS_FLOOR = "msgspec (ours)"
REFERENCE = "compiled"

#: ``[(function, argument)]``: one timed operation is ``function(argument)`` for each.
Pairs = list[tuple[Callable[[Any], Any], Any]]


def twin(name: str) -> Any:
    """The module of one of our twins (``"compiled"`` or ``"python"``), or ``None``."""
    return _frames_c if name == "compiled" else _frames_py


def _codec(module: Any, channel: str) -> tuple[Callable[[Any], Any], Callable[[Any], bytes]]:
    if channel == "notifications":
        return module.decode_notification, module.encode_notification
    return module.decode_read_resource, module.encode_read_resource


def _fresh(function: Callable[[Any], Any]) -> Callable[[memoryview], Any]:
    """``function`` on a new ``bytes`` copy of its argument, made at each call."""

    def call(view: memoryview) -> Any:
        return function(bytes(view))

    return call


def _decode_pairs(case: Case, functions: list[Callable[[Any], Any]], on_body: bool) -> Pairs:
    inputs = case.bodies if on_body else case.payloads
    if case.fresh:
        return [(_fresh(f), memoryview(x)) for f, x in zip(functions, inputs, strict=True)]
    return list(zip(functions, inputs, strict=True))


def _reference_values(case: Case) -> list[Any]:
    """The pure-Python twin's decoded values: what every encode is given."""
    decode, _ = _codec(_frames_py, case.channel)
    return [decode(p) for p in case.payloads]


# ---------------------------------------------------------------------------- ours


def _ours(module: Any, case: Case) -> dict[str, Pairs]:
    decode, encode = _codec(module, case.channel)
    if case.built:
        return {"encode": [(encode, built_value(case.built))]}
    out = {"decode": _decode_pairs(case, [decode] * len(case.payloads), on_body=False)}
    if case.fresh:
        out["encode"] = [(encode, Fresh(functools.partial(decode, p))) for p in case.payloads]
    else:
        out["encode"] = [(encode, decode(p)) for p in case.payloads]
    return out


# --------------------------------------------------------------------------- floor


def _minimal(case: Case) -> dict[str, Pairs]:
    if case.built:
        return {"encode": [(minimal.encode, minimal.built_progress())]}
    decoders = [minimal.decoder(case.channel, p) for p in case.payloads]
    out = {"decode": _decode_pairs(case, decoders, on_body=True)}
    pairs = zip(decoders, case.bodies, strict=True)
    if case.fresh:
        out["encode"] = [(minimal.encode, Fresh(functools.partial(d, b))) for d, b in pairs]
    else:
        out["encode"] = [(minimal.encode, d(b)) for d, b in pairs]
    return out


@functools.cache
def _floor_codecs() -> dict[str, Any]:
    """The msgspec decoders and encoders of our hot path, by what they are for. (The
    private names our hot path uses; the one place this module knows them.)"""
    return {
        "typed": msgspec.json.Decoder(t.TypedNotification),
        "custom": msgspec.json.Decoder(t.CustomNotification),
        "result": msgspec.json.Decoder(_wire.ReadResourceResultWire),
        "error": msgspec.json.Decoder(t.ErrorData),
        "encoder": _wire.encoder,
    }


def _floor_decoder(codecs: dict[str, Any], channel: str, payload: bytes) -> Callable[[Any], Any]:
    if payload[0] == 1:
        return codecs["error"].decode
    if channel == "read-resource":
        return codecs["result"].decode
    try:
        codecs["typed"].decode(payload[1:])
    except msgspec.ValidationError:  # unknown method: the type it ends up as
        return codecs["custom"].decode
    return codecs["typed"].decode


def _ours_alone(case: Case) -> dict[str, Pairs]:
    codecs = _floor_codecs()
    if case.built:
        return {"encode": [(codecs["encoder"].encode, built_value(case.built))]}
    decoders = [_floor_decoder(codecs, case.channel, p) for p in case.payloads]
    out = {"decode": _decode_pairs(case, decoders, on_body=True)}
    if case.fresh:
        decode, _ = _codec(_frames_py, case.channel)
        out["encode"] = [
            (codecs["encoder"].encode, Fresh(functools.partial(decode, p))) for p in case.payloads
        ]
    else:
        out["encode"] = [(codecs["encoder"].encode, value) for value in _reference_values(case)]
    return out


# ----------------------------------------------------------------------- mcp-types


@functools.cache
def mcp_types() -> Any:
    """PyPI ``mcp``'s pydantic models (``mcp.types``, which re-exports the ``mcp-types``
    package: either one will do); ``None`` when neither is installed."""
    for name in ("mcp.types", "mcp_types"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


@functools.cache
def mcp_validators() -> dict[str, Callable[[bytes], Any]] | None:
    """``{"notification"|"result"|"error": validate_json}`` of mcp-types, or ``None``.

    A notification is validated as ``ServerNotification``, and as the generic
    ``Notification`` when that fails (an unknown method), as a user would."""
    m = mcp_types()
    if m is None:
        return None
    import pydantic

    typed = pydantic.TypeAdapter(m.ServerNotification).validate_json
    generic = m.Notification[dict[str, Any] | None, str].model_validate_json
    error = pydantic.ValidationError

    def notification(body: bytes) -> Any:
        """A typed notification, or the generic one for an unknown method."""
        try:
            return typed(body)
        except error:
            return generic(body)

    return {
        "notification": notification,
        "result": m.ReadResourceResult.model_validate_json,
        "error": m.ErrorData.model_validate_json,
    }


def mcp_validator(channel: str, tag: int) -> Callable[[bytes], Any]:
    """The mcp-types ``validate_json`` for a frame of ``channel`` with ``tag``."""
    validators = mcp_validators()
    assert validators is not None
    if tag == 1:
        return validators["error"]
    return validators["notification" if channel == "notifications" else "result"]


def mcp_dump(model: Any) -> str:
    """mcp-types' encode: ``model_dump_json(by_alias=True, exclude_none=True)``."""
    out: str = model.model_dump_json(by_alias=True, exclude_none=True)
    return out


def _mcp_built(how: str) -> Any:
    """mcp-types' ``ProgressNotification`` built as :func:`benchmarks.cases.built_value`."""
    m = mcp_types()
    progress, total = (1, 4) if how == "ints" else (1.0, 4.0)
    params = m.ProgressNotificationParams(progress=progress, total=total, progressToken="t")
    return m.ProgressNotification(params=params)


def _mcp(case: Case) -> dict[str, Pairs] | None:
    if mcp_validators() is None:
        return None
    if case.built:
        return {"encode": [(mcp_dump, _mcp_built(case.built))]}
    validators = [mcp_validator(case.channel, p[0]) for p in case.payloads]
    out = {"decode": _decode_pairs(case, validators, on_body=True)}
    pairs = zip(validators, case.bodies, strict=True)
    if case.fresh:
        out["encode"] = [(mcp_dump, Fresh(functools.partial(v, b))) for v, b in pairs]
    else:
        out["encode"] = [(mcp_dump, v(b)) for v, b in pairs]
    return out


# -------------------------------------------------------------------------- orjson


@functools.cache
def orjson() -> Any:
    """The ``orjson`` module, or ``None`` when it is not installed."""
    try:
        return importlib.import_module("orjson")
    except ImportError:
        return None


def _orjson(case: Case) -> dict[str, Pairs] | None:
    module = orjson()
    if module is None:
        return None
    if case.built:
        progress, total = (1, 4) if case.built == "ints" else (1.0, 4.0)
        params = {"progress": progress, "progressToken": "t", "total": total}
        return {"encode": [(module.dumps, {"method": "notifications/progress", "params": params})]}
    out = {"decode": _decode_pairs(case, [module.loads] * len(case.payloads), on_body=True)}
    if case.fresh:
        out["encode"] = [
            (module.dumps, Fresh(functools.partial(module.loads, b))) for b in case.bodies
        ]
    else:
        out["encode"] = [(module.dumps, module.loads(b)) for b in case.bodies]
    return out


# ---------------------------------------------------------------------------- memcpy


def _memcpy(case: Case) -> dict[str, Pairs] | None:
    if case.section != "text":
        return None
    pairs: Pairs = []
    for payload in case.payloads:
        into = memoryview(bytearray(len(payload)))
        pairs.append((functools.partial(into.__setitem__, slice(None)), payload))
    return {"decode": pairs, "encode": pairs}


def _utf8_decode(case: Case) -> dict[str, Pairs] | None:
    if case.section != "text":
        return None
    return {"decode": [(bytes.decode, long_string(case))]}


# ---------------------------------------------------------------------------- all


_BUILDERS: dict[str, Callable[[Case], dict[str, Pairs] | None]] = {
    "compiled": lambda case: _ours(_frames_c, case) if _frames_c is not None else None,
    "python": lambda case: _ours(_frames_py, case),
    "msgspec": _minimal,
    "msgspec (ours)": _ours_alone,
    "mcp-types": _mcp,
    "orjson": _orjson,
    "memcpy": _memcpy,
    "utf-8 decode": _utf8_decode,
}


def ops(case: Case, impls: Iterable[str] = PEERS) -> dict[str, dict[str, Pairs]]:
    """``{"decode"|"encode": {implementation: pairs}}`` for one case and the
    implementations ``impls`` (an implementation that is not installed is left out)."""
    out: dict[str, dict[str, Pairs]] = {}
    for impl in impls:
        for op, pairs in (_BUILDERS[impl](case) or {}).items():
            out.setdefault(op, {})[impl] = pairs
    return out
