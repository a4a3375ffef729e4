# Types of the compiled hot path, _frames_c.pyx: the twin of _frames_py, with the same
# four functions and the same signatures (tests/test_stub.py holds this stub to it).
# The documentation is on the public names, diverge_frames.notifications.decode and so on.

from typing import TypeAlias

from .types import ErrorData, ReadResourceResult, ServerNotification

# Any contiguous bytes-like object, a slice of a larger buffer too.
Payload: TypeAlias = bytes | bytearray | memoryview

def decode_notification(payload: Payload) -> ServerNotification | ErrorData: ...
def encode_notification(value: ServerNotification | ErrorData) -> bytes: ...
def decode_read_resource(payload: Payload) -> ReadResourceResult | ErrorData: ...
def encode_read_resource(value: ReadResourceResult | ErrorData) -> bytes: ...
