"""The command line's plumbing, shared by its subcommands.

One-line messages, the exit statuses, a stdout that reports a failed write, inputs that
report a failed read.

Every message is one line: line breaks and other control characters in it are escaped
(``\\n``, ``\\x85``, ``\\u2028``). A closed pipe (``BrokenPipeError``) is never turned
into a message: :func:`diverge_frames.__main__.main` ends quietly with
:data:`EXIT_BROKEN_PIPE`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator
from importlib import resources
from typing import IO

#: Exit status after Ctrl-C: 128 + SIGINT, as a shell reports it.
EXIT_INTERRUPTED = 130
#: Exit status when stdout's reader went away: 128 + SIGPIPE, what a shell reports for a
#: tool stopped by the signal (``seq 1 100000 | head -1``).
EXIT_BROKEN_PIPE = 141

#: The capture shipped in the package (``data/``), read when no capture is named.
SAMPLE = "sample.capture.jsonl"

#: The longest input line read by default (``--max-line-size``), its newline not
#: counted: 64 MiB, a capture record of a frame of about 48 MB (base64 makes 4 bytes of
#: 3). A longer line stops the command after the lines before it, so that an input with
#: no line breaks (``< /dev/zero``) ends at once, in bounded memory.
MAX_LINE_SIZE = 64 * 1024 * 1024

_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def line_size(text: str) -> int:
    """``--max-line-size``: a number of bytes, at least 1, with an optional binary unit.

    The units are as in ``64M``, ``512k``, ``1G``; raises ``ValueError`` for anything else."""
    digits = text.strip().lower().removesuffix("ib").removesuffix("b")
    unit = digits[-1:] if digits[-1:] in ("k", "m", "g") else ""
    number = digits[: len(digits) - len(unit)]
    if not (number.isascii() and number.isdigit()) or int(number) < 1:
        raise ValueError(f"not a size of at least 1 byte: {text!r} (e.g. 1048576, 512k, 64M)")
    return int(number) * _UNITS[unit]


#: What could split a message into lines or act on a terminal, escaped in every
#: message: the C0 controls, DEL, the C1 controls (U+0085 NEXT LINE among them), LINE
#: SEPARATOR and PARAGRAPH SEPARATOR (``str.splitlines`` splits on several of them).
_LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: re.Match[str]) -> str:
    c = char.group()
    return _NAMED_ESCAPES.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def one_line(text: str) -> str:
    """``text`` with every line-breaking or control character escaped."""
    return _LINE_BREAKING.sub(_escape, text)


class BadInput(Exception):
    """Bad input: ``where`` (e.g. ``notes.jsonl:3``) and ``reason``, one line."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(where, reason)
        self.where = where
        self.reason = reason

    def __str__(self) -> str:
        return one_line(f"{self.where}: {self.reason}")


class WriteError(Exception):
    """stdout could not be written (anything but a closed pipe): ``reason``."""


def os_reason(exc: OSError) -> str:
    """What went wrong, in the words of the operating system."""
    return exc.strerror or str(exc) or type(exc).__name__


class Output:
    """stdout for the commands: a write that fails raises :class:`WriteError`.

    A closed pipe is the exception (``BrokenPipeError``, handled by ``__main__.main``)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream

    def write(self, data: bytes) -> None:
        try:
            self._stream.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise WriteError(os_reason(exc)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise WriteError(os_reason(exc)) from None


def _max_line_size(text: str) -> int:
    """``--max-line-size``: bytes, with an optional binary unit (``64M``)."""
    try:
        return line_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_max_line_size(parser: argparse.ArgumentParser) -> None:
    """The ``--max-line-size`` option of a command that reads lines."""
    parser.add_argument(
        "--max-line-size",
        type=_max_line_size,
        default=MAX_LINE_SIZE,
        metavar="SIZE",
        help="refuse an input line longer than SIZE bytes, newline not counted, after "
        "the lines before it (bytes, or with k, M or G; default 64M)",
    )


def read_lines(stream: IO[bytes], name: str, max_line: int = MAX_LINE_SIZE) -> Iterator[bytes]:
    """The lines of ``stream``, each at most ``max_line`` bytes.

    A read that fails raises :class:`BadInput` naming the last line read, and so does a line
    longer than ``max_line`` bytes (its newline not counted), naming it, before more than
    ``max_line + 1`` bytes of it are read."""
    number = 0
    while True:
        try:
            line = stream.readline(max_line + 1)
        except OSError as exc:
            raise BadInput(name, f"cannot read after line {number}: {os_reason(exc)}") from None
        if not line:
            return
        number += 1
        if len(line) > max_line and not line.endswith(b"\n"):  # read: max_line + 1 at most
            raise BadInput(
                f"{name}:{number}",
                f"line longer than {max_line:,} bytes (the limit; --max-line-size to raise it)",
            )
        yield line


class Input:
    """A binary line source and its name for messages.

    The name is a path, ``<stdin>``, or the shipped sample; its lines are at most
    ``max_line`` bytes. Raises :class:`BadInput` when a file cannot be opened; :meth:`lines`
    raises it when a read fails or a line is longer."""

    def __init__(self, path: str | None, default: str, max_line: int = MAX_LINE_SIZE) -> None:
        self._file: IO[bytes] | None = None
        self.max_line = max_line
        if path == "-" or (path is None and default == "stdin"):
            self.name = "<stdin>"
            if sys.stdin is None:  # started with stdin closed (`<&-`)
                raise BadInput(self.name, "cannot read: stdin is closed")
            self.stream = sys.stdin.buffer
        elif path is None:
            self.name = SAMPLE
            ref = resources.files("diverge_frames").joinpath("data").joinpath(SAMPLE)
            self.stream = self._file = ref.open("rb")
        else:
            self.name = path
            try:
                self.stream = self._file = open(path, "rb")  # noqa: SIM115
            except OSError as exc:
                raise BadInput(path, f"cannot open: {os_reason(exc)}") from None

    def lines(self) -> Iterator[bytes]:
        """The input's lines (``bytes``, each with its newline)."""
        return read_lines(self.stream, self.name, self.max_line)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def stdout_to_devnull() -> None:
    """Point stdout at devnull, so that the interpreter's final flush does not fail again.

    Used after a closed pipe or a failed write: what was not written is dropped."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real stdout: nothing to flush
        pass


def error(message: str) -> int:
    """Print ``diverge-frames: message`` as one line on stderr; return 1."""
    print(f"diverge-frames: {one_line(message)}", file=sys.stderr)
    return 1


def note(message: str) -> None:
    """Print ``diverge-frames: message`` as one line on stderr: news, not a failure."""
    print(f"diverge-frames: {one_line(message)}", file=sys.stderr)
