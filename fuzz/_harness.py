"""The shared body of the atheris fuzz targets (``fuzz_notifications.py``,
``fuzz_read_resource.py``).

For one channel, every input (a whole payload: tag byte + body) must:

* decode to a value or raise a :class:`~diverge_frames.FrameError`, nothing else
  (any other exception, a crash or a hang is a finding);
* decode the same way from ``bytes``, ``bytearray`` and a ``memoryview`` of one;
* decode the same way, value or error class, in the other implementation
  (``_frames_py`` vs ``_frames_c``); with ``DIVERGE_FRAMES_FUZZ_MESSAGES=1`` the error
  messages must match too;
* when it decodes, re-encode (the same bytes from both implementations) to a payload
  that decodes again; when the body is "plain" (no duplicate key, floats of at most
  15 digits (trailing zeros count) without exponent and below 10^16, integers of at most 17
  digits, no ``-0``) those bytes re-encode to themselves and decode to an equal value,
  except that a ``CustomNotification`` may come back as the typed notification its
  bytes fit (a ``"_meta": null`` keeps the first decode from typing it). Bodies that
  are not plain are not stable in rmcp 3.1.4 either (serde_json reads long floats
  inexactly; a duplicate key makes rmcp fall back to ``CustomNotification``); see
  ``docs/hostile-input.md``.

``DIVERGE_FRAMES_FUZZ_IMPL`` picks the implementation under test: ``cython``
(default) or ``python``; the other is the reference. Pure-Python code of
``diverge_frames`` is instrumented for coverage; the compiled module and msgspec
are C, run but not coverage-guided (no clang here to build them instrumented).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any

try:
    import atheris
except ImportError:  # fuzz/random_inputs.py uses make_test without atheris
    atheris = None

# ``plain_json`` is shared with tests/test_properties.py: scripts/fuzz.sh puts tests/
# on PYTHONPATH.
from json_shapes import plain_json

with (
    atheris.instrument_imports(include=["diverge_frames"])
    if atheris is not None
    else contextlib.nullcontext()
):
    from diverge_frames import _frames_py
    from diverge_frames.errors import FrameError
    from diverge_frames.types import CustomNotification

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

#: ``(decode name, encode name)`` in the hot-path modules, per channel.
CHANNELS = {
    "notifications": ("decode_notification", "encode_notification"),
    "read_resource": ("decode_read_resource", "encode_read_resource"),
}


def _modules() -> tuple[Any, Any]:
    """``(module under test, reference module or None)`` from the environment."""
    impl = os.environ.get("DIVERGE_FRAMES_FUZZ_IMPL", "cython")
    if impl not in ("python", "cython"):
        raise SystemExit(f"DIVERGE_FRAMES_FUZZ_IMPL must be python or cython, not {impl!r}")
    if impl == "cython":
        if _frames_c is None:
            raise SystemExit("the compiled module diverge_frames._frames_c is not built")
        return _frames_c, _frames_py
    return _frames_py, _frames_c


def _outcome(decode: Callable[[Any], Any], payload: Any) -> Any:
    """The decoded value, or the FrameError raised; any other exception propagates."""
    try:
        return decode(payload)
    except FrameError as exc:
        return exc


#: Whether errors of the two implementations must have the same message too.
MESSAGES = bool(os.environ.get("DIVERGE_FRAMES_FUZZ_MESSAGES"))


def _same(a: Any, b: Any, what: str, messages: bool = True) -> None:
    """Raise AssertionError unless two outcomes are the same value or the same error
    class (and message, when ``messages``)."""
    if type(a) is not type(b):
        raise AssertionError(f"{what}: {a!r} vs {b!r}")
    if isinstance(a, FrameError):
        if messages and str(a) != str(b):
            raise AssertionError(f"{what}: error {a} vs {b}")
    elif a != b:
        raise AssertionError(f"{what}: {a!r} vs {b!r}")


def make_test(channel: str) -> Callable[[bytes], None]:
    """The ``TestOneInput`` for ``channel`` (``notifications`` or ``read_resource``)."""
    primary, reference = _modules()
    decode_name, encode_name = CHANNELS[channel]
    decode = getattr(primary, decode_name)
    encode = getattr(primary, encode_name)
    ref_decode = getattr(reference, decode_name, None)
    ref_encode = getattr(reference, encode_name, None)

    def test_one_input(data: bytes) -> None:
        result = _outcome(decode, data)
        _same(result, _outcome(decode, bytearray(data)), "bytes vs bytearray")
        _same(result, _outcome(decode, memoryview(bytearray(data))), "bytes vs memoryview")
        if ref_decode is not None:
            _same(result, _outcome(ref_decode, data), "implementations differ", MESSAGES)
        if isinstance(result, FrameError):
            return
        encoded = encode(result)
        if ref_encode is not None and ref_encode(result) != encoded:
            raise AssertionError(f"encodings differ: {encoded!r} vs {ref_encode(result)!r}")
        again = decode(encoded)  # what we write, we read
        if not plain_json(data[1:]):
            return
        if encode(again) != encoded:
            raise AssertionError(f"re-encoding not stable: {encoded!r} vs {encode(again)!r}")
        if not (type(result) is CustomNotification and type(again) is not CustomNotification):
            _same(result, again, "decode(encode(value)) != value")

    return test_one_input


def main(channel: str) -> None:
    """Run libFuzzer on ``channel`` with the command-line flags in ``sys.argv``."""
    if atheris is None:
        raise SystemExit("atheris is not installed: pip install atheris")
    atheris.Setup(sys.argv, make_test(channel))
    atheris.Fuzz()
