"""serde 1.0.229's derived ``Deserialize``, as rmcp 3.1.4's types use it.

What a type reads from a value :func:`diverge_frames._exact.serde_json_reader.parse` has
read, and what it writes back. The rules that know serde and nothing of MCP;
:mod:`.rmcp_types` says which type sits where.

A type is a *kind* (a small object with ``read(node, owned)``). ``read`` returns the
value as rmcp writes it back through ``serde_json::to_value`` (plain ``dict`` / ``list``
/ ``str`` / ``int`` / ``float`` / ``bool`` / ``None``; an ``Option`` that is ``None`` is
left out; objects are sorted when written) or raises :class:`Mismatch`: the type does
not read the value, so the variant that holds it fails.

Where a value is read from decides some forms (serde's private ``de.rs``): inside an
untagged enum the buffered ``Content`` is read *by reference* (``ContentRefDeserializer``);
the body of an internally tagged variant and the fields of a struct reached through
``#[serde(flatten)]`` are read from *owned* ``Content`` (``ContentDeserializer``), whose
``deserialize_unit`` also takes an empty map. ``owned`` says which, and passes down.

* :class:`UnitEnum` (externally tagged, unit variants): ``"v"`` or a one-key map
  ``{"v": null}``; ``{"v": {}}`` too when ``owned``; written ``"v"``.
* :class:`Struct` (derived): an object (a member twice rejects it; unknown members are
  skipped, or reject it with ``deny_unknown_fields``; a missing ``Option`` is ``None``) or,
  unless it is an untagged enum's struct variant, an array of its fields in declaration
  order (a short one only when the missing fields have ``#[serde(default)]``).
* :class:`Tagged` (``#[serde(tag = ...)]``): an object whose tag member names the variant
  (by name, or by index as an unsigned integer), or an array ``[tag, fields...]``; then
  the untagged fallback variants, if any, on any failure.
* :class:`Untagged`: the first variant that reads the value.
* Numbers: :class:`Int` (``u32``, ``u64``, ``i64``: integers in range, never a float
  token), :data:`F64` and :data:`F32` (any number; an ``f32`` is rounded to single
  precision and written as that value widened, ``inf`` when it overflows, which
  ``serde_json`` writes ``null``).
* :data:`STR`, :data:`BOOL`, :class:`Const` (a ``const_string``), :data:`VALUE`
  (``serde_json::Value``, any value), :data:`OBJECT` (``Map<String, Value>``),
  :class:`Opt`, :class:`Seq`, :class:`Map` (``BTreeMap`` / ``IndexMap`` with string
  keys: the last duplicate wins, every value is read).
"""

from __future__ import annotations

import math
import struct
from typing import Any

from .serde_json import Obj, plain

__all__ = [
    "Mismatch",
    "UnitEnum",
    "Struct",
    "Field",
    "Tagged",
    "Untagged",
    "Int",
    "Const",
    "Opt",
    "Seq",
    "Map",
    "STR",
    "BOOL",
    "F64",
    "F32",
    "F32_IN_JSON",
    "VALUE",
    "OBJECT",
    "U32",
    "U64",
    "I64",
    "f32",
]


class Mismatch(Exception):
    """The type does not read the value (serde's ``Error``: the variant that holds it fails)."""


def _fail(expected: str, node: Any) -> Mismatch:
    return Mismatch(f"expected {expected}, got {type(node).__name__}")


class _Kind:
    def read(self, node: Any, owned: bool) -> Any:
        raise NotImplementedError


class _Scalar(_Kind):
    def __init__(self, name: str, cls: type) -> None:
        self.name, self.cls = name, cls

    def read(self, node: Any, owned: bool) -> Any:
        if type(node) is not self.cls:
            raise _fail(self.name, node)
        return node


class Int(_Kind):
    """A Rust integer type.

    An integer token in ``lo..=hi`` (serde_json hands over ``u64`` / ``i64``; a token
    with a fraction or exponent, or ``-0``, is a float).
    """

    def __init__(self, name: str, lo: int, hi: int) -> None:
        self.name, self.lo, self.hi = name, lo, hi

    def read(self, node: Any, owned: bool) -> int:
        if type(node) is not int or not self.lo <= node <= self.hi:
            raise _fail(self.name, node)
        return node


_SINGLE = struct.Struct("<f")


def f32(value: float) -> float:
    """Rust's ``value as f32``, widened back to f64 as ``serde_json::to_value`` does.

    Rounded to nearest, ties to even; ``inf`` past the range.
    """
    if type(value) is int and not -(2**53) <= value <= 2**53:
        # One rounding, as `u64 as f32` does: keep 24 significant bits.
        shift = abs(value).bit_length() - 24
        q, r = divmod(abs(value), 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        return math.copysign(float(q << shift), value)
    try:
        return float(_SINGLE.unpack(_SINGLE.pack(value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


#: A ``null`` that a struct writes (where None would leave the member out).
_JSON_NULL = object()


class _Float(_Kind):
    def __init__(self, single: bool, free_form: bool = False) -> None:
        self.single = single
        self.free_form = free_form

    def read(self, node: Any, owned: bool) -> Any:
        if type(node) is not int and type(node) is not float:
            raise _fail("a number", node)
        value = f32(node) if self.single else float(node)
        if self.free_form and not math.isfinite(value):
            return _JSON_NULL  # what serde_json writes for it, kept in a plain-JSON member
        return value


class _Value(_Kind):
    def __init__(self, object_only: bool) -> None:
        self.object_only = object_only

    def read(self, node: Any, owned: bool) -> Any:
        if self.object_only and type(node) is not Obj:
            raise _fail("an object", node)
        return plain(node)


class Const(_Kind):
    """rmcp's ``const_string!``: a string equal to ``value``."""

    def __init__(self, value: str) -> None:
        self.value = value

    def read(self, node: Any, owned: bool) -> str:
        if node != self.value or type(node) is not str:
            raise _fail(repr(self.value), node)
        return node


class Opt(_Kind):
    """``Option<T>``: ``null`` (or a missing member) is ``None``, left out when written."""

    def __init__(self, kind: _Kind) -> None:
        self.kind = kind

    def read(self, node: Any, owned: bool) -> Any:
        return None if node is None else self.kind.read(node, owned)


class Seq(_Kind):
    """``Vec<T>``: an array."""

    def __init__(self, kind: _Kind) -> None:
        self.kind = kind

    def read(self, node: Any, owned: bool) -> list[Any]:
        if type(node) is not list:
            raise _fail("an array", node)
        return [self.kind.read(item, owned) for item in node]


class Map(_Kind):
    """``BTreeMap<String, T>`` / ``IndexMap<String, T>``.

    An object; every value is read, the last of a duplicated key is kept.
    """

    def __init__(self, kind: _Kind) -> None:
        self.kind = kind

    def read(self, node: Any, owned: bool) -> dict[str, Any]:
        if type(node) is not Obj:
            raise _fail("an object", node)
        return {key: self.kind.read(value, owned) for key, value in node}


class UnitEnum(_Kind):
    """An enum of unit variants (externally tagged).

    ``"v"``, ``{"v": null}``, and ``{"v": {}}`` when read from owned ``Content``.
    Written as ``"v"``.
    """

    def __init__(self, name: str, variants: tuple[str, ...]) -> None:
        self.name, self.variants = name, frozenset(variants)

    def read(self, node: Any, owned: bool) -> str:
        if type(node) is str:
            variant = node
        elif type(node) is Obj and len(node) == 1:
            variant, unit = node[0]
            # (the empty map: an Obj, or a dict where the reading keeps no pairs)
            if unit is not None and not (owned and type(unit) in (Obj, dict) and not unit):
                raise _fail(f"a unit variant of {self.name}", unit)
        else:
            raise _fail(f"a string or a one-key map ({self.name})", node)
        if variant not in self.variants:
            raise Mismatch(f"unknown variant {variant!r} of {self.name}")
        return variant


class Field:
    """A struct field.

    Its wire name, its kind, ``default`` (``#[serde(default)]``: may be missing from the
    array form) and the ``aliases`` it is also read from.
    """

    def __init__(
        self, name: str, kind: _Kind, *, default: bool = False, aliases: tuple[str, ...] = ()
    ) -> None:
        self.name, self.kind, self.default, self.aliases = name, kind, default, aliases
        self.optional = isinstance(kind, Opt)


class Struct(_Kind):
    """A derived struct.

    ``fields`` in declaration order. ``seq=False`` for a struct variant of an untagged
    enum and a struct with a flattened field (no array form).
    """

    def __init__(
        self, name: str, *fields: Field, seq: bool = True, deny_unknown: bool = False
    ) -> None:
        self.name, self.fields, self.seq, self.deny_unknown = name, fields, seq, deny_unknown
        self.by_name = {n: f for f in fields for n in (f.name, *f.aliases)}

    def read(self, node: Any, owned: bool) -> dict[str, Any]:
        if type(node) is list and self.seq:
            return self._read_seq(node, owned)
        if type(node) is not Obj:
            raise _fail(f"struct {self.name}", node)
        return self.read_map(node, owned)

    def read_map(self, pairs: Any, owned: bool) -> dict[str, Any]:
        """The struct from (key, value) pairs (also how a flattened struct is read)."""
        values: dict[str, Any] = {}
        for key, value in pairs:
            field = self.by_name.get(key)
            if field is None:
                if self.deny_unknown:
                    raise Mismatch(f"unknown field {key!r} of {self.name}")
                continue
            if field.name in values:
                raise Mismatch(f"duplicate field {field.name!r} of {self.name}")
            values[field.name] = field.kind.read(value, owned)
        for field in self.fields:
            if field.name not in values:
                if not (field.optional or field.default):
                    raise Mismatch(f"missing field {field.name!r} of {self.name}")
                values[field.name] = None
        return self._written(values)

    def _read_seq(self, items: list[Any], owned: bool) -> dict[str, Any]:
        fields = self.fields
        if len(items) > len(fields) or not all(f.default for f in fields[len(items) :]):
            raise Mismatch(f"invalid length {len(items)} for struct {self.name}")
        values = {f.name: f.kind.read(item, owned) for f, item in zip(fields, items, strict=False)}
        values.update((f.name, None) for f in fields[len(items) :])
        return self._written(values)

    def _written(self, values: dict[str, Any]) -> dict[str, Any]:
        return {
            name: None if value is _JSON_NULL else value
            for name, value in values.items()
            if value is not None
        }


def _tag_index(node: Any, names: tuple[str, ...]) -> int:
    """serde's variant identifier: the variant's name, or its index as an unsigned integer."""
    if type(node) is str and node in names:
        return names.index(node)
    if type(node) is int and 0 <= node < len(names):
        return node
    raise _fail(f"a variant of {names}", node)


class Tagged(_Kind):
    """An internally tagged enum (``#[serde(tag = "...")]``) of struct-like variants.

    ``variants`` are (name, kind) in declaration order; written with the tag member.
    ``fallback``: its ``#[serde(untagged)]`` variants, (name written, kind), tried on
    any failure of the tagged part.
    """

    def __init__(
        self,
        name: str,
        tag: str,
        variants: tuple[tuple[str, Struct], ...],
        fallback: tuple[tuple[str, Struct], ...] = (),
    ) -> None:
        self.name, self.tag, self.variants, self.fallback = name, tag, variants, fallback
        self.names = tuple(n for n, _ in variants)

    def read(self, node: Any, owned: bool) -> dict[str, Any]:
        try:
            return self._tagged(node)
        except Mismatch:
            for written, kind in self.fallback:
                try:
                    return {self.tag: written, **kind.read(node, False)}
                except Mismatch:
                    pass
            raise

    def read_map(self, pairs: Any, owned: bool) -> dict[str, Any]:
        """Read from (key, value) pairs, as a flattened field is."""
        return self.read(Obj(pairs), owned)

    def _tagged(self, node: Any) -> dict[str, Any]:
        if type(node) is list:
            if not node:
                raise Mismatch(f"missing field {self.tag!r}")
            index, body = _tag_index(node[0], self.names), node[1:]
        elif type(node) is Obj:
            tags = [value for key, value in node if key == self.tag]
            if len(tags) != 1:
                raise Mismatch(f"{'missing' if not tags else 'duplicate'} field {self.tag!r}")
            index = _tag_index(tags[0], self.names)
            body = Obj((key, value) for key, value in node if key != self.tag)
        else:
            raise _fail(f"enum {self.name}", node)
        name, kind = self.variants[index]
        # The body of an internally tagged variant is read from owned Content.
        return {self.tag: name, **kind.read(body, True)}


class Untagged(_Kind):
    """``#[serde(untagged)]``: the first of ``variants`` that reads the buffered value."""

    def __init__(self, name: str, *variants: _Kind) -> None:
        self.name, self.variants = name, variants

    def read(self, node: Any, owned: bool) -> Any:
        for kind in self.variants:
            try:
                return kind.read(node, False)  # buffered: read by reference
            except Mismatch:
                pass
        raise Mismatch(f"data did not match any variant of untagged enum {self.name}")


STR = _Scalar("a string", str)
BOOL = _Scalar("a boolean", bool)
F64 = _Float(single=False)
F32 = _Float(single=True)
#: An ``f32`` inside what the public types keep as plain JSON (a content block's
#: annotations): past the f32 range it is ``None``, the ``null`` serde_json writes.
F32_IN_JSON = _Float(single=True, free_form=True)
VALUE = _Value(object_only=False)
OBJECT = _Value(object_only=True)
U32 = Int("u32", 0, 2**32 - 1)
U64 = Int("u64", 0, 2**64 - 1)
I64 = Int("i64", -(2**63), 2**63 - 1)
