"""The capture format: channel frames as JSON Lines (see ``docs/capture-format.md``).

Each line is one :class:`Record` naming its channel, so one capture can interleave
several channels::

    {"channel":"1","kind":"notifications","payload":"AHsibWV0aG9kIjoi..."}   a channel response
    {"channel":"1","kind":"notifications","finish":true}                     the channel's finish
    {"channel":"2","kind":"read-resource","abort":true}                      an abrupt end

``payload`` is the whole channel payload (tag byte and JSON) in standard base64 with
padding (RFC 4648 section 4); ``""`` is the empty payload. A record has exactly one of
``payload``, ``"finish": true`` or ``"abort": true``. Members this version does not
know are ignored; blank lines are skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import IO, Literal

import msgspec

from ._names import public_dir
from ._wire import DECODE_ERRORS

#: What reading a line as JSON raises for a line that is not JSON.
_LINE_ERRORS: tuple[type[Exception], ...] = (*DECODE_ERRORS, RecursionError)

__all__ = [
    "KINDS",
    "Kind",
    "Record",
    "CaptureError",
    "read_capture",
    "encode_record",
    "write_record",
    "response",
    "finish",
    "abort",
]


__dir__: Callable[[], list[str]] = public_dir(__all__)


#: The channel kinds a capture can hold: the MCP notification channel and the
#: read-resource channel of the Diverge provider protocol.
Kind = Literal["notifications", "read-resource"]
KINDS: tuple[str, ...] = ("notifications", "read-resource")


class Record(msgspec.Struct, omit_defaults=True):
    """One capture line.

    ``channel``: the channel's id (a non-empty string; it names one channel for the
    whole capture, so it is not reused after that channel's finish or abort);
    ``kind``: ``"notifications"`` or ``"read-resource"``; ``payload``: the response
    payload bytes (written as base64), ``None`` for a finish or an abort;
    ``finish`` / ``abort``: ``True`` for the channel's last record.
    Exactly one of ``payload``, ``finish``, ``abort`` is set (:func:`read_capture`
    checks; build records with :func:`response`, :func:`finish`, :func:`abort`, which
    check too, as :func:`encode_record` does: what they accept, the reader accepts).
    """

    channel: str
    kind: Kind
    payload: bytes | None = None
    finish: bool = False
    abort: bool = False


class CaptureError(ValueError):
    """A capture line is not a valid :class:`Record`.

    ``line`` is the 1-based line number, ``reason`` says what is wrong (msgspec's
    message, with the JSON path, e.g. ``Invalid base64 encoded string - at `$.payload```).
    """

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}")

    def __reduce__(self) -> tuple[type[CaptureError], tuple[int, str]]:
        return (type(self), (self.line, self.reason))


_decoder = msgspec.json.Decoder(Record)
_encoder = msgspec.json.Encoder()


def read_capture(lines: Iterable[bytes | str]) -> Iterator[tuple[int, Record]]:
    """Parse capture lines lazily, yielding ``(line_number, record)`` (1-based).

    ``lines``: any iterable of ``bytes`` or ``str`` lines, e.g. a file opened in binary
    mode; trailing newlines and blank lines are fine. Raises :class:`CaptureError` at
    the first line that is not JSON, not a record object, has bad base64, an unknown
    ``kind``, or not exactly one of ``payload`` / ``finish`` / ``abort`` (the msgspec
    error, if any, chained as ``__cause__``). The records before it have been yielded
    by then.
    """
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = _decoder.decode(line)
        except _LINE_ERRORS as exc:
            reason = "JSON nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise CaptureError(number, f"not a capture record: {reason}") from exc
        _check(number, record)
        yield number, record


def _invalid(record: Record) -> str | None:
    """What makes a decoded ``record`` invalid beyond its types, or ``None``.

    The rules of a record that msgspec's types do not say."""
    if not record.channel:
        return "empty channel id - at `$.channel`"
    events = (record.payload is not None) + record.finish + record.abort
    if events != 1:
        return (
            'a record has exactly one of `payload`, `"finish": true` or `"abort": true`'
            f", this one has {events}"
        )
    return None


def _check(number: int, record: Record) -> None:
    reason = _invalid(record)
    if reason is not None:
        raise CaptureError(number, reason)


def encode_record(record: Record) -> bytes:
    """One capture line for ``record``: compact JSON and ``b"\\n"``.

    Raises ``ValueError`` when :func:`read_capture` would reject the line (the line is
    read back to check: an empty channel id, a ``kind`` not in :data:`KINDS`, not
    exactly one of ``payload`` / ``finish`` / ``abort``, a member of the wrong type) or
    would read back as another record (a ``str`` payload comes back as ``bytes``),
    or when a string holds a lone surrogate (``UnicodeEncodeError``, no UTF-8 for it);
    ``TypeError`` for a member msgspec cannot encode at all.
    """
    line = _encoder.encode(record)
    try:
        again = _decoder.decode(line)
    except DECODE_ERRORS as exc:
        reason: str | None = str(exc)
    else:
        reason = _invalid(again)
        if reason is None and again != record:  # e.g. a str payload: it reads as bytes
            reason = f"it would read back as {again!r}"
    if reason is not None:
        raise ValueError(f"not a valid capture record: {reason}")
    return line + b"\n"


def write_record(out: IO[bytes], record: Record) -> None:
    """Write ``record`` as one line to the binary stream ``out``.

    Raises as :func:`encode_record` does, writing nothing then."""
    out.write(encode_record(record))


def _valid(record: Record) -> Record:
    encode_record(record)
    return record


def response(channel: str, kind: Kind, payload: bytes | bytearray | memoryview) -> Record:
    """A channel response record carrying ``payload`` (copied to ``bytes``).

    Raises ``ValueError`` as :func:`encode_record` does (e.g. for an empty ``channel``)."""
    return _valid(Record(channel=channel, kind=kind, payload=bytes(payload)))


def finish(channel: str, kind: Kind) -> Record:
    """The finish record: the channel's orderly end; raises as :func:`response`."""
    return _valid(Record(channel=channel, kind=kind, finish=True))


def abort(channel: str, kind: Kind) -> Record:
    """The abort record: the channel ended abruptly (no finish).

    Raises as :func:`response`."""
    return _valid(Record(channel=channel, kind=kind, abort=True))
