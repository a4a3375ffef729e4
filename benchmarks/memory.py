"""Peak memory of decoding a large blob frame, beyond the input (``tracemalloc``)."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import msgspec

from diverge_frames import _frames_py, _wire

from .peers import twin

__all__ = ["memory_check", "memory_lines"]


def memory_check(blob_mib: int = 64) -> dict[str, Any]:
    """Decode a read-resource frame holding a ``blob_mib`` MiB base64 blob under
    ``tracemalloc``; report each path's peak allocation beyond the input, in bytes and
    as a multiple of the blob's length (the decoded ``str`` alone is 1.0x)."""
    blob_len = blob_mib * 1024 * 1024
    payload = (
        b'\x00{"contents":[{"uri":"file:///big.bin","mimeType":"application/octet-stream",'
        b'"blob":"' + b"QUJD" * (blob_len // 4) + b'"}]}'
    )
    paths: dict[str, Callable[[Any], Any]] = {"python": _frames_py.decode_read_resource}
    compiled = twin("compiled")
    if compiled is not None:
        paths["compiled"] = compiled.decode_read_resource
    body = memoryview(payload)[1:]
    floor = msgspec.json.Decoder(_wire.ReadResourceResultWire)
    paths["msgspec"] = lambda _: floor.decode(body)
    out: dict[str, Any] = {"blob_bytes": blob_len, "frame_bytes": len(payload), "paths": {}}
    for name, decode in paths.items():
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            value = decode(payload)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        if len(value.contents[0].blob) != blob_len:
            raise AssertionError(f"{name} decoded a blob of the wrong length")
        del value
        extra = peak - before
        out["paths"][name] = {"peak_extra_bytes": extra, "ratio": extra / blob_len}
    body.release()
    return out


def memory_lines(memory: dict[str, Any]) -> str:
    """One line per path: its peak beyond the input, in MiB and as a multiple of the blob."""
    mib = memory["blob_bytes"] >> 20
    return "\n".join(
        f"- {mib} MiB blob frame, {name}: peak {p['peak_extra_bytes'] / 2**20:.1f} MiB beyond"
        f" the input = {p['ratio']:.3f}x the blob"
        for name, p in memory["paths"].items()
    )
