# cython: language_level=3, boundscheck=False, wraparound=False
# cython: freethreading_compatible=True
"""The hot path compiled: tag split, dispatch to a cached decoder, encode.

Twin of ``_frames_py.py``, kept alike line by line; both pass the same tests. The
difference is the split: the payload's buffer is borrowed (no copy, no slice object)
and the body handed to msgspec as a read-only memoryview over it.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_CheckExact, PyBytes_GET_SIZE

import msgspec

from . import types as t
from ._shared import decode_custom, encode_custom, encoder, notification_encoder
from .errors import EmptyFrameError, FrameBodyError, UnknownTagError

cdef extern from "Python.h":
    object PyMemoryView_FromMemory(char *mem, Py_ssize_t size, int flags)
    int PyBUF_READ

cdef int _NOTIFICATION = 0
cdef int _RESULT = 0
cdef int _ERROR = 1
cdef bytes _TAG_NOTIFICATION = b"\x00"
cdef bytes _TAG_RESULT = b"\x00"
cdef bytes _TAG_ERROR = b"\x01"

cdef object _notification_decoder = msgspec.json.Decoder(t.TypedNotification).decode
cdef object _result_decoder = msgspec.json.Decoder(t._ReadResourceResultWire).decode
cdef object _error_decoder = msgspec.json.Decoder(t.ErrorData).decode
cdef object _encode = encoder.encode
cdef object _encode_notification = notification_encoder.encode
cdef frozenset _TYPED = frozenset(t.TYPED_NOTIFICATIONS)
cdef object _DecodeError = msgspec.DecodeError
cdef object _ValidationError = msgspec.ValidationError
cdef object _Text = t.TextResourceContents
cdef object _Blob = t.BlobResourceContents
cdef object _Result = t.ReadResourceResult
cdef object _Custom = t.CustomNotification
cdef object _ErrorData = t.ErrorData


cdef class _Split:
    """The payload's buffer, held for the length of one decode."""
    cdef Py_buffer view
    cdef bint held
    cdef object owner
    cdef int tag
    cdef object body

    def __dealloc__(self):
        # The body view points into the payload without owning it: close it before
        # the buffer goes, so that nothing (say, a traceback) can read it later.
        if self.body is not None:
            try:
                self.body.release()
            except Exception:
                pass
        if self.held:
            PyBuffer_Release(&self.view)


cdef _Split _split(object payload):
    """Borrow ``payload``'s bytes: ``tag`` is the first, ``body`` a memoryview over the
    rest (no copy). Raises EmptyFrameError, or TypeError when not bytes-like."""
    cdef _Split s = _Split.__new__(_Split)
    cdef char *data
    cdef Py_ssize_t size
    if PyBytes_CheckExact(payload):
        data = PyBytes_AS_STRING(payload)
        size = PyBytes_GET_SIZE(payload)
        s.owner = payload
    else:
        try:
            PyObject_GetBuffer(payload, &s.view, PyBUF_SIMPLE)
        except BufferError:
            # bytes-like but not contiguous: decode a copy
            payload = memoryview(payload).tobytes()
            PyObject_GetBuffer(payload, &s.view, PyBUF_SIMPLE)
        s.held = True
        s.owner = payload
        data = <char *>s.view.buf
        size = s.view.len
    if size == 0:
        raise EmptyFrameError()
    s.tag = <unsigned char>data[0]
    s.body = PyMemoryView_FromMemory(data + 1, size - 1, PyBUF_READ)
    return s


def decode_notification(payload):
    cdef _Split s = _split(payload)
    cdef int tag = s.tag
    if tag == _NOTIFICATION:
        try:
            return _notification_decoder(s.body)
        except _ValidationError:
            return decode_custom(s.body, tag)
        except (_DecodeError, RecursionError) as exc:
            raise FrameBodyError.from_exception(tag, "ServerNotification", exc) from exc
    if tag == _ERROR:
        return _decode_error(s.body, tag)
    raise UnknownTagError(tag, "notifications")


def decode_read_resource(payload):
    cdef _Split s = _split(payload)
    cdef int tag = s.tag
    if tag == _RESULT:
        try:
            wire = _result_decoder(s.body)
        except (_DecodeError, RecursionError) as exc:
            raise FrameBodyError.from_exception(tag, "ReadResourceResult", exc) from exc
        return _result(wire, tag)
    if tag == _ERROR:
        return _decode_error(s.body, tag)
    raise UnknownTagError(tag, "read-resource")


cdef object _decode_error(object body, int tag):
    try:
        return _error_decoder(body)
    except (_DecodeError, RecursionError) as exc:
        raise FrameBodyError.from_exception(tag, "ErrorData", exc) from exc


cdef object _result(object wire, int tag):
    """rmcp's untagged ``ResourceContents``: text when ``text`` is a string, else blob
    when ``blob`` is; rmcp's ``ttlMs`` clamp to 0."""
    cdef list contents = []
    cdef Py_ssize_t index
    for index, item in enumerate(wire.contents):
        if type(item.text) is str:
            contents.append(_Text(uri=item.uri, mime_type=item.mime_type, text=item.text, meta=item.meta))
        elif type(item.blob) is str:
            contents.append(_Blob(uri=item.uri, mime_type=item.mime_type, blob=item.blob, meta=item.meta))
        else:
            raise FrameBodyError(
                tag,
                "ReadResourceResult",
                "data did not match any variant of untagged enum ResourceContents"
                " (no string `text` or `blob`)",
                f"$.contents[{index}]",
            )
    ttl_ms = wire.ttl_ms
    if ttl_ms is not None and ttl_ms < 0:
        ttl_ms = 0
    return _Result(
        result_type=wire.result_type,
        ttl_ms=ttl_ms,
        cache_scope=wire.cache_scope,
        contents=contents,
        meta=wire.meta,
    )


def encode_notification(value):
    cls = type(value)
    if cls in _TYPED:
        return _TAG_NOTIFICATION + _encode_notification(value)
    if cls is _ErrorData:
        return _TAG_ERROR + _encode(value)
    if cls is _Custom:
        return _TAG_NOTIFICATION + encode_custom(value)
    raise TypeError(
        f"a notification channel carries a ServerNotification or ErrorData, not {cls.__name__}"
    )


def encode_read_resource(value):
    cls = type(value)
    if cls is _Result:
        return _TAG_RESULT + _encode(value)
    if cls is _ErrorData:
        return _TAG_ERROR + _encode(value)
    raise TypeError(
        f"a read-resource channel carries a ReadResourceResult or ErrorData, not {cls.__name__}"
    )
