"""Command line: ``python -m diverge_frames`` (console script ``diverge-frames``).

``encode`` turns JSON values (one per line) into a capture of channel frames;
``decode`` prints each frame of a capture as one JSON line; ``bench`` times decode and
encode of the frames of a capture (:mod:`diverge_frames._capture_bench`). The capture
format is described in :mod:`diverge_frames.capture` and ``docs/capture-format.md``.

Bad input (a malformed capture line, bad base64, an unknown kind, a frame that does not
decode, a sequence violation) stops the command: what came before it has been written
to stdout, one line on stderr names the line, the channel and the reason, and the exit
status is 1. So do an input that cannot be read, an output that cannot be written (a
full disk, a closed stdout), an input line longer than ``--max-line-size`` (64 MiB by
default; read no further than that, so that an input with no line break, ``<
/dev/zero``, stops at once in bounded memory) and running out of memory. Every message
is one line: line
breaks and other control characters in it are escaped (``\n``, ``\x85``,
``\u2028``).

Exit statuses: 0 success; 1 bad input or one of those errors; 2 a usage error; 130
(128 + SIGINT) interrupted by Ctrl-C, with no traceback; 141 (128 + SIGPIPE, what a
shell shows for a tool stopped by a closed pipe) when the reader of stdout went away
(``| head``), with no message.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from . import __version__, _impl, capture
from ._cli_io import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    SAMPLE,
    BadInput,
    Input,
    Output,
    WriteError,
    add_max_line_size,
    error,
    note,
    stdout_to_devnull,
)
from .capture import _LINE_ERRORS, CaptureError, Kind, Record
from .channel import (
    Aborted,
    Error,
    Finished,
    NotificationChannel,
    NotServed,
    OneShotChannel,
)
from .errors import FrameError, SequenceError

__all__ = ["main"]

#: The hot-path module used for decoding and encoding. Internal hook: the tests swap
#: in ``_frames_py`` or ``_frames_c`` to run the CLI against both implementations.
_frames = _impl.frames

_EXAMPLES = """\
examples:
  # every frame of the sample capture shipped in the package, one JSON line each
  python -m diverge_frames decode

  # notifications (one JSON object per line) to a capture, and back
  python -m diverge_frames encode --channel notifications notes.jsonl > notes.capture.jsonl
  python -m diverge_frames decode notes.capture.jsonl

  # a read-resource channel answered by an error, decoded from stdin
  echo '{"error": {"code": -32002, "message": "Resource not found"}}' \\
    | python -m diverge_frames encode --channel read-resource --channel-id 7 \\
    | python -m diverge_frames decode -

  python -m diverge_frames bench --help

Bad input stops at the first bad line: the lines before it are printed, one line on
stderr names the line, the channel and the reason, and the exit status is 1.
"""


class _FrameLine(msgspec.Struct):
    """A decoded channel response, as ``decode`` prints it.

    ``value`` is the JSON our encoder writes for the decoded value (the payload ``encode``
    gives, without its tag byte); ``type`` is the value's class name in
    :mod:`diverge_frames.types`."""

    channel: str
    kind: str
    tag: int
    type: str
    value: msgspec.Raw


class _EventLine(msgspec.Struct):
    """A channel's end, as ``decode`` prints it.

    ``event`` is ``"finished"``, ``"not_served"`` (a read-resource channel finished with no
    response) or ``"aborted"``."""

    channel: str
    kind: str
    event: str


_json = msgspec.json.Encoder()
_EVENTS = {Finished: "finished", NotServed: "not_served", Aborted: "aborted"}


def _codec(kind: str) -> tuple[Callable[[Any], Any], Callable[[Any], bytes]]:
    """``(decode, encode)`` of the current hot path for a channel kind."""
    if kind == "notifications":
        return _frames.decode_notification, _frames.encode_notification
    return _frames.decode_read_resource, _frames.encode_read_resource


def _open_channel(kind: str) -> Any:
    decode, _ = _codec(kind)
    if kind == "notifications":
        return NotificationChannel(decode=decode)
    return OneShotChannel(decode=decode)


def _channel_name(channel: str, kind: str) -> str:
    return f"channel {_json.encode(channel).decode()} ({kind})"


def _failure(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _value(event: Any) -> Any:
    """The value a receive event carries (``Notification``/``Result``/``Error``)."""
    return event.error if isinstance(event, Error) else event.value


# --------------------------------------------------------------------------- decode


def _decode(lines: Iterable[bytes], name: str, out: Output) -> None:
    """Write one JSON line per record of the capture ``lines`` to ``out``.

    A capture with no record at all is said so on stderr (and is no error).

    Raises :class:`BadInput` at the first bad record, or at the end when a channel
    was left without its finish or abort record.
    """
    channels: dict[str, tuple[str, Any]] = {}
    open_channels: dict[str, int] = {}  # channel id -> line of its first record
    number = 0
    records = capture.read_capture(lines)
    while True:
        try:
            item = next(records, None)
        except CaptureError as exc:
            raise BadInput(f"{name}:{exc.line}", exc.reason) from None
        if item is None:
            break
        number, record = item
        out.write(_decode_record(record, f"{name}:{number}", channels, open_channels, number))
    if not channels:
        note(f"{name}: no records (an empty capture): nothing to print")
    if open_channels:
        first = next(iter(open_channels))
        kind = channels[first][0]
        more = len(open_channels) - 1
        raise BadInput(
            f"{name}: end of capture (after line {number})",
            f"{_channel_name(first, kind)}, opened at line {open_channels[first]}, "
            "has no finish or abort record"
            + (f" (and {more} more open channel{'s' if more > 1 else ''})" if more else ""),
        )


def _decode_record(
    record: Record,
    where: str,
    channels: dict[str, tuple[str, Any]],
    open_channels: dict[str, int],
    number: int,
) -> bytes:
    """Apply one record to its channel and return the output line."""
    cid, kind = record.channel, record.kind
    known = channels.get(cid)
    if known is None:
        known = channels[cid] = (kind, _open_channel(kind))
        open_channels[cid] = number
    elif known[0] != kind:
        raise BadInput(
            where,
            f"{_channel_name(cid, known[0])}: this record says kind {_json.encode(kind).decode()}",
        )
    channel = known[1]
    try:
        if record.payload is not None:
            event = channel.receive(record.payload)
        elif record.finish:
            event = channel.finish()
        else:
            event = channel.abort()
    except FrameError as exc:
        raise BadInput(where, f"{_channel_name(cid, kind)}: {_failure(exc)}") from None
    if record.payload is None:
        open_channels.pop(cid, None)
        return _json.encode(_EventLine(cid, kind, _EVENTS[type(event)])) + b"\n"
    value = _value(event)
    _, encode = _codec(kind)
    body = encode(value)
    line = _FrameLine(cid, kind, body[0], type(value).__name__, msgspec.Raw(body[1:]))
    return _json.encode(line) + b"\n"


# --------------------------------------------------------------------------- encode


_object = msgspec.json.Decoder(dict[str, msgspec.Raw])


def _payload(line: bytes) -> bytes:
    """The channel payload for one input line.

    ``{"error": X}`` (an object whose only member is ``error``) gives ``[1]`` + X; any other
    object gives ``[0]`` + the line. Raises ``msgspec.DecodeError`` when the line is not a
    JSON object."""
    members = _object.decode(line)
    if members.keys() == {"error"}:
        return b"\x01" + bytes(members["error"])
    return b"\x00" + line.strip()


#: What ``encode`` says after a second value on a read-resource channel.
_ONE_PER_RUN = (
    " (encode writes one channel per run: run it once per read-resource value, each "
    "with its own --channel-id, and concatenate the captures)"
)


def _encode(lines: Iterable[bytes], name: str, out: Output, kind: Kind, cid: str) -> None:
    """Write the capture of one channel.

    A response record per non-blank input line (re-encoded as rmcp writes it), then the
    finish record.

    Raises :class:`BadInput` for a line that is not a JSON object, does not decode as
    the channel's frame, or breaks the channel's sequence rules (a second value on a
    read-resource channel, anything after an error on a notification channel).
    """
    channel = _open_channel(kind)
    _, encode = _codec(kind)
    where = _channel_name(cid, kind)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            event = channel.receive(_payload(line))
        except _LINE_ERRORS as exc:
            reason = "JSON nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise BadInput(f"{name}:{number}", f"{where}: not a JSON object: {reason}") from None
        except FrameError as exc:
            hint = (
                _ONE_PER_RUN if isinstance(exc, SequenceError) and kind == "read-resource" else ""
            )
            raise BadInput(f"{name}:{number}", f"{where}: {_failure(exc)}{hint}") from None
        out.write(capture.encode_record(capture.response(cid, kind, encode(_value(event)))))
    channel.finish()
    out.write(capture.encode_record(capture.finish(cid, kind)))


# --------------------------------------------------------------------------- options


def _channel_id(text: str) -> str:
    """``--channel-id``: a string a capture can hold.

    Not empty, and UTF-8, so that what ``encode`` writes, ``decode`` reads."""
    if not text:
        raise argparse.ArgumentTypeError("must not be empty: a capture names each channel")
    try:
        capture.finish(text, "notifications")
    except UnicodeError:  # bytes of the command line that are not UTF-8
        raise argparse.ArgumentTypeError("must be valid UTF-8") from None
    return text


def _prog() -> str:
    argv0 = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "python -m diverge_frames" if argv0 in ("__main__.py", "-m", "-c") else "diverge-frames"


def _wrap(text: str) -> str:
    return textwrap.fill(text, 88)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_prog(),
        description=_wrap(
            "Encode and decode the MCP channel frames of the Diverge provider protocol "
            "(notification and read-resource channels) as JSON Lines captures."
        ),
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"diverge-frames {__version__} ({_impl.IMPLEMENTATION})",
    )
    sub = parser.add_subparsers(dest="command", metavar="{encode,decode,bench}")
    enc = sub.add_parser(
        "encode",
        help="JSON values, one per line, to a capture of one channel's frames",
        description=_wrap(
            "Read JSON values, one per line: an object whose only member is "
            '"error" ({"error": {ErrorData}}) is an error frame (tag 1), any other object '
            "a notification or a ReadResourceResult (tag 0). Write a capture of one "
            "channel to stdout: a response record per value, re-encoded as rmcp writes "
            "it, then the channel's finish record. A read-resource channel carries one "
            "value: encode each in a run of its own (with its own --channel-id)."
        ),
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    enc.add_argument(
        "--channel",
        required=True,
        choices=capture.KINDS,
        help="the channel kind: a notification channel (notifications, then at most one "
        "error) or a read-resource channel (one result or error)",
    )
    enc.add_argument(
        "--channel-id",
        default="1",
        type=_channel_id,
        help='the channel id in the capture, not empty (default "1")',
    )
    enc.add_argument(
        "file", nargs="?", metavar="FILE", help="input JSON Lines (default or -: stdin)"
    )
    add_max_line_size(enc)
    dec = sub.add_parser(
        "decode",
        help="print each record of a capture as one JSON line",
        description=_wrap(
            "Print one compact JSON line per capture record: "
            '{"channel","kind","tag","type","value"} for a response, '
            '{"channel","kind","event"} ("finished", "not_served", "aborted") for a '
            "channel's end. Each channel's sequence rules are enforced."
        ),
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    dec.add_argument(
        "capture",
        nargs="?",
        metavar="CAPTURE",
        help=f"capture file (- for stdin; default: the {SAMPLE} shipped in the package)",
    )
    add_max_line_size(dec)
    sub.add_parser(
        "bench",
        help="time decode and encode of a capture's frames (bench --help for its options)",
        add_help=False,
    )
    return parser


def _bench(argv: list[str]) -> int:
    from . import _capture_bench

    return _capture_bench.main(argv, _frames)


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    0 on success, 1 for bad input or an I/O error, 2 for a usage error, 130 after Ctrl-C,
    141 when stdout's reader went away."""
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as a tool stopped by
        # SIGPIPE does. stdout goes to devnull so that the interpreter's final flush
        # does not fail again.
        stdout_to_devnull()
        return EXIT_BROKEN_PIPE


def _main(args: list[str]) -> int:
    if args[:1] == ["bench"]:
        return _bench(args[1:])
    parser = _parser()
    try:
        ns = parser.parse_args(args)
    except SystemExit as exc:  # --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else 2
    if ns.command is None:
        parser.print_usage(sys.stderr)
        print(
            f"{parser.prog}: error: a command is required (encode, decode or bench)",
            file=sys.stderr,
        )
        return 2
    if sys.stdout is None:  # started with stdout closed (`>&-`)
        return error("cannot write to stdout: it is closed")
    out = Output(sys.stdout.buffer)
    source: Input | None = None
    failure = ""
    try:
        try:
            if ns.command == "encode":
                source = Input(ns.file, "stdin", ns.max_line_size)
                _encode(source.lines(), source.name, out, ns.channel, ns.channel_id)
            else:
                source = Input(ns.capture, "sample", ns.max_line_size)
                _decode(source.lines(), source.name, out)
        except BadInput as exc:
            failure = str(exc)
        except MemoryError:
            failure = f"{source.name if source is not None else 'input'}: out of memory"
        finally:
            if source is not None:
                source.close()
        out.flush()  # what came before the failure, if any, is written before its message
    except WriteError as exc:
        # What could not be written is dropped: stdout goes to devnull so that the
        # interpreter's final flush does not report it again.
        stdout_to_devnull()
        return error(f"cannot write to stdout: {exc}")
    return error(failure) if failure else 0


if __name__ == "__main__":
    sys.exit(main())
