# cython: language_level=3, boundscheck=False, wraparound=False
# cython: freethreading_compatible=True
"""The hot path compiled: tag split, dispatch to a cached decoder, encode.

Twin of ``_frames_py.py``, kept alike line by line; both pass the same tests. The
difference is the split: the payload's buffer is borrowed (no copy, no slice object)
and the body handed to msgspec as a read-only memoryview over it.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_CheckExact, PyBytes_GET_SIZE
from libc.stdint cimport uint64_t
from libc.string cimport memchr, memcmp, memcpy

import msgspec

from . import types as t
from ._shared import (
    decode_custom,
    decode_exact,
    encode_custom,
    encoder,
    fix_exponents,
    notification_encoder,
)
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
cdef enum:
    # Objects nested this deep or less are checked for duplicated keys (struct members).
    _KEY_DEPTH = 3
    # Keys remembered per object; an object with more is sent to the exact path.
    _KEYS = 16


cdef class _Split:
    """The payload's buffer, held for the length of one decode."""
    cdef Py_buffer view
    cdef bint held
    cdef object owner
    cdef int tag
    cdef object body
    cdef const unsigned char *data
    cdef Py_ssize_t size

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
    s.data = <const unsigned char *>data + 1
    s.size = size - 1
    s.body = PyMemoryView_FromMemory(data + 1, size - 1, PyBUF_READ)
    return s


cdef bint _valid_utf8(const unsigned char *p, Py_ssize_t n) noexcept nogil:
    """UTF-8 as Rust's ``str`` accepts it (no overlongs, surrogates or > U+10FFFF);
    eight ASCII bytes at a time."""
    cdef Py_ssize_t i = 0
    cdef unsigned char c, c1
    cdef uint64_t word
    while i < n:
        if i + 8 <= n:
            memcpy(&word, p + i, 8)
            if (word & 0x8080808080808080ULL) == 0:
                i += 8
                continue
        c = p[i]
        if c < 0x80:
            i += 1
        elif c < 0xC2:
            return False
        elif c < 0xE0:
            if i + 1 >= n or (p[i + 1] & 0xC0) != 0x80:
                return False
            i += 2
        elif c < 0xF0:
            if i + 2 >= n:
                return False
            c1 = p[i + 1]
            if (c1 & 0xC0) != 0x80 or (p[i + 2] & 0xC0) != 0x80:
                return False
            if (c == 0xE0 and c1 < 0xA0) or (c == 0xED and c1 >= 0xA0):
                return False
            i += 3
        elif c < 0xF5:
            if i + 3 >= n:
                return False
            c1 = p[i + 1]
            if (c1 & 0xC0) != 0x80 or (p[i + 2] & 0xC0) != 0x80 or (p[i + 3] & 0xC0) != 0x80:
                return False
            if (c == 0xF0 and c1 < 0x90) or (c == 0xF4 and c1 >= 0x90):
                return False
            i += 4
        else:
            return False
    return True


cdef bint _unusual(const unsigned char *p, Py_ssize_t n) noexcept nogil:
    """True when the body may decode differently with msgspec than with serde_json:
    invalid UTF-8 (msgspec does not check what it skips), a key repeated in an object
    nested three levels or less (or a key with an escape there), 128 levels of nesting,
    or a number that is not plain (an exponent, more than 15 digits with a fraction, 17
    without, ``-0``). The compiled twin of ``_shared.unusual``; strings are skipped
    with memchr."""
    cdef Py_ssize_t i = 0, j, k, key = 0, key_end = 0
    cdef Py_ssize_t key_at[_KEY_DEPTH + 1][_KEYS]
    cdef Py_ssize_t key_len[_KEY_DEPTH + 1][_KEYS]
    cdef int keys[_KEY_DEPTH + 1]
    cdef int depth = 0, m, d
    cdef unsigned char c
    cdef const unsigned char *q
    if not _valid_utf8(p, n):
        return True
    while i < n:
        c = p[i]
        if c == 34:  # '"': skip the string, remember where it was (a key if ':' follows)
            j = i + 1
            while True:
                q = <const unsigned char *>memchr(p + j, 34, n - j)
                if q == NULL:
                    return False  # unterminated: msgspec rejects it
                k = q - p
                d = 0
                while p[k - 1 - d] == 92:  # backslashes before the quote
                    d += 1
                if not (d & 1):
                    break
                j = k + 1
            key = i + 1
            key_end = k
            i = k + 1
            continue
        if c == 58:  # ':'
            if 1 <= depth <= _KEY_DEPTH:
                m = <int>(key_end - key)
                if memchr(p + key, 92, m) != NULL:
                    return True
                for j in range(keys[depth]):
                    if key_len[depth][j] == m and memcmp(p + key_at[depth][j], p + key, m) == 0:
                        return True
                if keys[depth] == _KEYS:
                    return True
                key_at[depth][keys[depth]] = key
                key_len[depth][keys[depth]] = m
                keys[depth] += 1
        elif c == 123 or c == 91:  # '{' '['
            depth += 1
            if depth >= 128:
                return True
            if 1 <= depth <= _KEY_DEPTH:
                keys[depth] = 0
        elif c == 125 or c == 93:  # '}' ']'
            depth -= 1
        elif c == 45 or 48 <= c <= 57:  # '-' or a digit: a number
            if c == 45:
                i += 1
            j = i
            while i < n and 48 <= p[i] <= 57:
                i += 1
            d = <int>(i - j)
            if i < n and p[i] == 46:  # '.'
                i += 1
                j = i
                while i < n and 48 <= p[i] <= 57:
                    i += 1
                if d + (i - j) > 15:
                    return True
            elif d >= 17 or (c == 45 and d == 1 and p[j] == 48):  # long, or -0
                return True
            if i < n and (p[i] | 32) == 101:  # 'e' 'E'
                return True
            continue
        i += 1
    return False


def decode_notification(payload):
    cdef _Split s = _split(payload)
    cdef int tag = s.tag
    if tag == _NOTIFICATION:
        if _unusual(s.data, s.size):
            return decode_exact(s.body, tag, "ServerNotification")
        try:
            return _notification_decoder(s.body)
        except _ValidationError:
            return decode_custom(s.body, tag)
        except (_DecodeError, RecursionError) as exc:
            return decode_exact(s.body, tag, "ServerNotification", exc)
    if tag == _ERROR:
        return _decode_error(s, tag)
    raise UnknownTagError(tag, "notifications")


def decode_read_resource(payload):
    cdef _Split s = _split(payload)
    cdef int tag = s.tag
    if tag == _RESULT:
        if _unusual(s.data, s.size):
            return decode_exact(s.body, tag, "ReadResourceResult")
        try:
            wire = _result_decoder(s.body)
        except (_DecodeError, RecursionError) as exc:
            return decode_exact(s.body, tag, "ReadResourceResult", exc)
        return _result(wire, tag)
    if tag == _ERROR:
        return _decode_error(s, tag)
    raise UnknownTagError(tag, "read-resource")


cdef object _decode_error(_Split s, int tag):
    if _unusual(s.data, s.size):
        return decode_exact(s.body, tag, "ErrorData")
    try:
        return _error_decoder(s.body)
    except (_DecodeError, RecursionError) as exc:
        return decode_exact(s.body, tag, "ErrorData", exc)


cdef object _result(object wire, int tag):
    """rmcp's untagged ``ResourceContents``: text when ``text`` is a string, else blob
    when ``blob`` is; rmcp's ``ttlMs`` clamp to 0."""
    cdef list contents = []
    cdef Py_ssize_t index
    for index, item in enumerate(wire.contents):
        if type(item.text) is str:
            contents.append(
                _Text(uri=item.uri, mime_type=item.mime_type, text=item.text, meta=item.meta)
            )
        elif type(item.blob) is str:
            contents.append(
                _Blob(uri=item.uri, mime_type=item.mime_type, blob=item.blob, meta=item.meta)
            )
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
    cdef bytes out
    if cls in _TYPED:
        out = _TAG_NOTIFICATION + _encode_notification(value)
    elif cls is _ErrorData:
        out = _TAG_ERROR + _encode(value)
    elif cls is _Custom:
        out = _TAG_NOTIFICATION + encode_custom(value)
    else:
        raise TypeError(
            f"a notification channel carries a ServerNotification or ErrorData, not {cls.__name__}"
        )
    if _exponent_candidate(<const unsigned char *>PyBytes_AS_STRING(out), PyBytes_GET_SIZE(out)):
        return fix_exponents(out)
    return out


def encode_read_resource(value):
    cls = type(value)
    cdef bytes out
    if cls is _Result:
        out = _TAG_RESULT + _encode(value)
    elif cls is _ErrorData:
        out = _TAG_ERROR + _encode(value)
    else:
        raise TypeError(
            f"a read-resource channel carries a ReadResourceResult or ErrorData, not {cls.__name__}"
        )
    if _exponent_candidate(<const unsigned char *>PyBytes_AS_STRING(out), PyBytes_GET_SIZE(out)):
        return fix_exponents(out)
    return out


cdef inline uint64_t _equal_bytes(uint64_t word, uint64_t pattern) noexcept nogil:
    """The high bit of each byte of ``word`` equal to that byte of ``pattern``."""
    cdef uint64_t x = word ^ pattern
    return ~(((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) & 0x8080808080808080ULL


cdef inline uint64_t _digit_bytes(uint64_t word) noexcept nogil:
    """The high bit of each byte of ``word`` that is an ASCII digit."""
    cdef uint64_t low = word & 0x7F7F7F7F7F7F7F7FULL
    cdef uint64_t above_2f = low + 0x5050505050505050ULL  # high bit: byte >= '0'
    cdef uint64_t above_39 = low + 0x4646464646464646ULL  # high bit: byte > '9'
    return above_2f & ~above_39 & ~word & 0x8080808080808080ULL


cdef bint _exponent_candidate(const unsigned char *p, Py_ssize_t n) noexcept nogil:
    """True when msgspec's output ``p`` holds a float exponent outside a string (``1e16``,
    which rmcp writes ``1e+16``). Eight bytes at a time for an ``e`` followed by a digit
    (rare), then, if there is one, a look at whether it is outside every string."""
    cdef Py_ssize_t i = 0
    cdef uint64_t word, next_word
    while i + 9 <= n:
        memcpy(&word, p + i, 8)
        memcpy(&next_word, p + i + 1, 8)
        if _equal_bytes(word, 0x6565656565656565ULL) & _digit_bytes(next_word):
            return _exponent_outside_strings(p, n)
        i += 8
    while i + 1 < n:
        if p[i] == 101 and 48 <= p[i + 1] <= 57:
            return _exponent_outside_strings(p, n)
        i += 1
    return False


cdef bint _exponent_outside_strings(const unsigned char *p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i = 0, j, k
    cdef int d
    cdef const unsigned char *q
    while i < n:
        if p[i] == 34:  # skip the string
            j = i + 1
            while True:
                q = <const unsigned char *>memchr(p + j, 34, n - j)
                if q == NULL:
                    return False
                k = q - p
                d = 0
                while p[k - 1 - d] == 92:
                    d += 1
                if not (d & 1):
                    break
                j = k + 1
            i = k + 1
            continue
        if p[i] == 101 and i + 1 < n and 48 <= p[i + 1] <= 57 and i > 0 and 48 <= p[i - 1] <= 57:
            return True
        i += 1
    return False
