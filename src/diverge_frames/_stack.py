"""A decode that does not depend on the caller's stack depth.

msgspec (in C), the stdlib JSON scanner and the exact path's tree walks recurse once per
level of nesting, and CPython counts every such level against the one recursion limit
the caller's own frames count against (``sys.getrecursionlimit()``, 1000 by default): a
body nested as deeply as serde_json reads (127 levels) would fail, or be read another
way, when the caller is already some 870 frames deep. The rule:

* A decode step may answer a ``RecursionError`` itself only on a fresh stack
  (:func:`on_fresh_stack`): there the error is the body's own doing (nesting past what
  msgspec or the scanner reach, which the exact path reads without recursion).
* Anywhere else the error goes up to the hot path's entry, which runs the whole decode
  again from the start on a new thread whose stack holds nothing else
  (:func:`run_fresh`), and returns what that run returns, or raises what it raises.

The process-wide recursion limit is never changed. A body that still runs out of depth on
a fresh stack (a recursion limit set below what 127 levels need) is a FrameBodyError.
"""

from __future__ import annotations

import _thread
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import FrameBodyError

__all__ = ["MSGSPEC_MESSAGE_OPENINGS", "on_fresh_stack", "run_fresh", "within_openings"]

#: msgspec is asked for its message on a body rmcp rejects (its wording and path are
#: better than the exact reading's) with at most this many arrays and objects opened:
#: past them, whether msgspec reaches its error before a RecursionError would move by a
#: level or two with the interpreter's own state (CPython's specialized calls count
#: differently), and the message would change from one call to the next.
MSGSPEC_MESSAGE_OPENINGS = 500
#: A body up to this long has its openings counted first (two passes in C), one with
#: few of them then left whole at once; a longer one is looked at opening by opening,
#: up to the limit only (a body of many openings costs no more than its first ones),
#: and copied this many bytes at a time when it is not ``bytes``.
_COUNTED = 64 * 1024
#: A body longer than ``_FOUND_FIRST`` (and up to ``_COUNTED``) with ``_FEW`` openings
#: or fewer is left whole after as many ``bytes.find`` (memchr) calls, not counted.
_FEW = 16
_FOUND_FIRST = 2048


T = TypeVar("T")


class _Fresh(threading.local):
    fresh = False


_state = _Fresh()


def on_fresh_stack() -> bool:
    """True on a thread :func:`run_fresh` started: a RecursionError is the body's."""
    return _state.fresh


def within_openings(body: Any) -> tuple[Any, bool]:
    """``body`` cut before its opening past ``MSGSPEC_MESSAGE_OPENINGS``, and whether it was cut.

    ``(body, False)`` when the bytes-like ``body`` holds at most
    ``MSGSPEC_MESSAGE_OPENINGS`` ``[`` and ``{`` bytes (strings included), else
    ``(prefix, True)``: the body up to its next one, as bytes. A reader that stops with
    an error inside the prefix stops there in the whole body too, having nested no
    deeper than that many levels; one that runs to the prefix's end would have read on.
    The openings are found with ``bytes.find`` (memchr), so a body with few costs two
    passes at memory speed and one with many stops early; a body that is not ``bytes``
    is copied ``_COUNTED`` bytes at a time, never whole (only a prefix that is cut is).
    """
    size = len(body) if type(body) is bytes else memoryview(body).nbytes
    if size <= _COUNTED:
        data = body if type(body) is bytes else memoryview(body).tobytes()
        if (size > _FOUND_FIRST and _past(data, _FEW)[0] < 0) or (
            data.count(b"[") + data.count(b"{") <= MSGSPEC_MESSAGE_OPENINGS
        ):
            return body, False  # (two passes in C: no opening looked at one by one)
    if type(body) is bytes:
        pieces: Any = ((0, body),)  # found in place
        view: Any = body
    else:
        view = memoryview(body).cast("B")
        pieces = ((at, view[at : at + _COUNTED].tobytes()) for at in range(0, len(view), _COUNTED))
    seen = 0
    for start, piece in pieces:
        at, found = _past(piece, MSGSPEC_MESSAGE_OPENINGS - seen)
        if at >= 0:
            return bytes(view[: start + at]), True
        seen += found
    return body, False


def _past(piece: bytes, count: int) -> tuple[int, int]:
    """The index of ``piece``'s opening after its first ``count`` (or -1), and how many.

    How many: the openings found before it, ``count``, or all the piece holds.
    """
    find = piece.find
    seen, square, curly = 0, find(b"["), find(b"{")
    while square >= 0 or curly >= 0:
        if curly < 0 or 0 <= square < curly:
            at, square = square, find(b"[", square + 1)
        else:
            at, curly = curly, find(b"{", curly + 1)
        if seen == count:
            return at, seen
        seen += 1
    return -1, seen


def run_fresh(
    decode: Callable[[Any], T], payload: Any, expected: tuple[str, str]
) -> tuple[bool, T | BaseException]:
    """``decode(payload)`` run again on a new thread's stack.

    Returns ``(True, value)``, or ``(False, exception)`` for the caller to raise (so that no
    frame of this module, which holds the payload, is in its traceback). ``expected`` names
    what tags 0 and 1 announce, for the FrameBodyError given when the run runs out of depth
    there too (or no thread can be started)."""
    if _state.fresh:
        return False, _too_deep(payload, expected)
    outcome: list[tuple[bool, Any]] = []
    done = _thread.allocate_lock()
    done.acquire()

    def run() -> None:
        _state.fresh = True
        try:
            outcome.append((True, decode(payload)))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            outcome.append((False, exc))
        finally:
            done.release()

    try:
        _thread.start_new_thread(run, ())
    except RuntimeError:  # pragma: no cover - a platform without threads
        return False, _too_deep(payload, expected)
    done.acquire()
    payload = None  # the closure's cell too: an error's traceback must not hold it
    return outcome[0]


def _too_deep(payload: Any, expected: tuple[str, str]) -> FrameBodyError:
    head = memoryview(payload).tobytes()[:1]
    tag = head[0] if head else 0
    return FrameBodyError(
        tag,
        expected[tag] if tag < len(expected) else expected[0],
        "JSON nested more deeply than the recursion limit (sys.getrecursionlimit()) allows",
    )
