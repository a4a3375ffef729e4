# cython: language_level=3, boundscheck=False, wraparound=False
# cython: freethreading_compatible=True
"""The hot path compiled: tag split, dispatch to a cached decoder, encode.

Twin of ``_frames_py.py``; both pass the same tests and give the same values, bytes and
errors. What only the compiled path does, all for speed and none visible:

* a ``bytes`` payload up to ``_COPY_LIMIT`` bytes is decoded from a copy of its body in
  one reused ``bytearray`` (``_take_body``: a small copy costs less than a memoryview,
  and no allocation less than one); any larger or other payload through a read-only
  memoryview over its buffer (no copy);
* a notification whose body plainly starts ``{"method":"<m>"`` with ``m`` no typed
  method goes straight to the custom-notification fallback (no failed typed attempt);
* a read-resource body without a ``"blob"`` key, or without a ``"text"`` one, is decoded
  straight to the public types, its wire result made the public ``ReadResourceResult``
  in place (``_public.pxi``);
* msgspec's decoders and encoders are called through their C functions, the public
  functions are builtins (no Cython function object between CPython and them), and
  struct fields on the hot path are read at their slots (``_capi.h``);
* in a read-resource body each long ``"text":"..."`` or ``"blob":"..."`` string, and
  the long ``"data":"..."`` of a logging-message notification, is built into its
  ``str`` in C, read once, its escapes replaced as it is copied 64 bytes a step, and cut
  out before msgspec (and ``_needs_exact``) see the rest (``_spliced_result`` and
  ``_spliced_log``, in ``_strings.pxi``);
* a ReadResourceResult holding a long ASCII blob is encoded with the blob replaced by a
  mark, then the blob copied in its place as it is checked (``_spliced_encode``);
* a notification, an error or a small result is encoded into a reused scratch
  ``bytearray`` after the tag byte, then copied once into its ``bytes``; anything else
  has the tag byte written into msgspec's own output buffer (no second copy).

Whenever one of these meets anything unusual it steps aside and the general path
(the twin's) decides, errors included. Encode checks every value as the twin does
(``_checks.check``), after a walk in C of the same plans (``_check.h``) that lets a
value it can see is canonical through without a call into Python.

The pre-check is serde_json's reading in C (``_serde_json.h``, ``_exact.pxi``): a body
msgspec would read otherwise is written again so that it does not (``_rewrite``:
numbers spelled as serde_json's f64), and rmcp's rules that need a body's repeated keys
read a tree built from msgspec's reading of that rewrite (``_exact``); no body is read
by Python code. A writable buffer is checksummed before and after its decode, and
decoded again from a copy when another thread wrote to it meanwhile.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from cpython.bytes cimport (PyBytes_AS_STRING, PyBytes_CheckExact, PyBytes_FromStringAndSize,
                            PyBytes_GET_SIZE)
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from libc.string cimport memchr, memcmp, memcpy, memmove

cimport cython

import msgspec

from . import _checks, _plans
from . import _wire as w
from . import types as t
from ._rmcp import (STRUCT_DEPTH, decode_custom, decode_exact, duplicate_field, encode_custom,
                    rejection)
from ._rmcp_positions import STRUCT_POSITIONS, models_below
from ._serde_json import REASONS, reject, tree
from ._stack import run_fresh
from .errors import EmptyFrameError, FrameBodyError, UnknownTagError

cdef extern from "Python.h":
    object PyMemoryView_FromMemory(char *mem, Py_ssize_t size, int flags)
    int PyBUF_READ
    PyObject *PyObject_CallOneArg(object callable, object arg) except NULL
    int _PyBytes_Resize(PyObject **bytes, Py_ssize_t newsize) except -1
    Py_ssize_t Py_REFCNT(PyObject *o)
    void Py_SET_SIZE(object o, Py_ssize_t size)
    void Py_DECREF(PyObject *o)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void *PyUnicode_DATA(object o)
    object PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    bint PyUnicode_IS_ASCII(object o)
    PyObject *_new_str "PyUnicode_New"(Py_ssize_t size, Py_UCS4 maxchar) except NULL
    int PyUnicode_Resize(PyObject **unicode, Py_ssize_t length) except -1
    void *_str_data "PyUnicode_DATA"(PyObject *o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

cdef extern from "_capi.h":
    # Calls and reads that skip a generic layer of the C API (see the header).
    ctypedef struct df_method:
        pass
    int _method_init "df_method_init"(df_method *m, object callable) except -1
    bint _method_fast "df_method_fast"(const df_method *m) noexcept
    object _call1 "df_call1"(const df_method *m, object a)
    object _call3 "df_call3"(const df_method *m, object a, object b, object c)
    void _set_type "df_set_type"(object obj, object type) noexcept
    int _set_ml_doc "df_set_doc"(object function, const char *doc) except -1

cdef enum:
    # Indexes of _DECODERS.
    _D_NOTIFICATION
    _D_CUSTOM
    _D_RESULT
    _D_TEXT_RESULT
    _D_BLOB_RESULT
    _D_ERROR
    _N_DECODERS

cdef extern from "_scan.h":
    # The byte scanners, in C (see the header for each one's contract).
    const bint _GIL_DISABLED "DF_GIL_DISABLED"
    const bint _SSE2 "DF_SSE2"
    int _ESCAPED "DF_ESCAPED"
    int _HIGH "DF_HIGH"
    bint _valid_utf8 "df_valid_utf8"(const unsigned char *p, Py_ssize_t n) noexcept nogil
    Py_ssize_t _string_end "df_string_end"(const unsigned char *p, Py_ssize_t n, Py_ssize_t j,
                                           int *flags) noexcept nogil
    Py_ssize_t _e_digit "df_e_digit"(const unsigned char *p, Py_ssize_t n,
                                     Py_ssize_t i) noexcept nogil
    unsigned char _copy_checked "df_copy_checked"(unsigned char *d, const unsigned char *s,
                                                  Py_ssize_t m, unsigned char also) noexcept nogil
    bint _has_key "df_has_key"(const unsigned char *p, Py_ssize_t n,
                               const char *name) noexcept nogil
    unsigned _lowest_bit "df_lowest_bit"(unsigned m) noexcept nogil


cdef int _TAG_NOTIFICATION = 0
cdef int _TAG_RESULT = 0
cdef int _TAG_ERROR = 1
#: A bytes payload up to this long is decoded from a copy of its body: one small
#: allocation and memcpy cost less than a memoryview (and msgspec reads bytes fastest).
cdef Py_ssize_t _COPY_LIMIT = 16384
#: A blob at least this long (ASCII) is encoded by ``_spliced_encode``.
cdef Py_ssize_t _LONG_BLOB = 4096

# msgspec's decoders and encoders, each called through its C function (_capi.h).
cdef df_method _DECODERS[_N_DECODERS]
_method_init(&_DECODERS[_D_NOTIFICATION], w.notification_decoder.decode)
_method_init(&_DECODERS[_D_CUSTOM], w.custom_decoder.decode)
_method_init(&_DECODERS[_D_RESULT], w.result_decoder.decode)
_method_init(&_DECODERS[_D_TEXT_RESULT], w.text_result_decoder.decode)
_method_init(&_DECODERS[_D_BLOB_RESULT], w.blob_result_decoder.decode)
_method_init(&_DECODERS[_D_ERROR], w.error_decoder.decode)
cdef df_method _ENCODE_INTO[2]
_method_init(&_ENCODE_INTO[0], w.encoder.encode_into)
_method_init(&_ENCODE_INTO[1], w.notification_encoder.encode_into)
cdef df_method *_encode_into = &_ENCODE_INTO[0]
cdef df_method *_encode_notification_into = &_ENCODE_INTO[1]
#: Whether every one of them is called through its C function (for the tests).
FAST_CALLS = all([_method_fast(&_DECODERS[_i]) for _i in range(_N_DECODERS)]
                 + [_method_fast(&_ENCODE_INTO[_i]) for _i in range(2)])

cdef inline object _notification_decoder(object body):
    return _call1(&_DECODERS[_D_NOTIFICATION], body)

cdef inline object _custom_decoder(object body):
    return _call1(&_DECODERS[_D_CUSTOM], body)

cdef inline object _result_decoder(object body):
    return _call1(&_DECODERS[_D_RESULT], body)

cdef inline object _text_result_decoder(object body):
    return _call1(&_DECODERS[_D_TEXT_RESULT], body)

cdef inline object _blob_result_decoder(object body):
    return _call1(&_DECODERS[_D_BLOB_RESULT], body)

cdef inline object _error_decoder(object body):
    return _call1(&_DECODERS[_D_ERROR], body)

cdef object _any_decoder = w.any_decoder.decode
cdef object _encode = w.encoder.encode
cdef object _encode_notification = w.notification_encoder.encode
#: Where small outputs are encoded (tag byte first) before one copy into their bytes;
#: None while in use. Kept only while it stays small.
cdef object _scratch = bytearray(1024)
cdef Py_ssize_t _SCRATCH_KEEP = 16384
cdef tuple _DECODE_ERRORS = w.DECODE_ERRORS  # msgspec's errors, every version allowed
cdef object _ValidationError = msgspec.ValidationError
cdef object _Text = t.TextResourceContents
#: What a long blob is replaced with while the rest of a result is encoded: msgspec
#: writes a Raw as is, and a NUL byte appears nowhere else in its JSON output.
cdef object _BLOB_MARK = msgspec.Raw(b"\x00")
cdef object _Blob = t.BlobResourceContents
cdef object _Result = t.ReadResourceResult


cdef object _Custom = t.CustomNotification
cdef object _ErrorData = t.ErrorData
cdef object _Logging = t.LoggingMessageNotification
#: What tags 0 and 1 announce on each channel (for an error of ``run_fresh``).
cdef tuple _NOTIFICATION_TYPES = ("ServerNotification", "ErrorData")
cdef tuple _READ_RESOURCE_TYPES = ("ReadResourceResult", "ErrorData")
cdef enum:
    # The deepest nesting serde_json reads (_serde_json.MAX_DEPTH; the header's
    # DF_SJ_MAX_DEPTH, held equal at import by _exact.pxi), for the encode check's walk.
    _MAX_DEPTH = 127
    # Room for the typed methods of the unknown-method shortcut (a bit each in an
    # unsigned), and the method length from which they are looked up together.
    _MAX_TYPED = 32
    _LONG_METHOD = 63

# The typed methods as C strings, for the unknown-method shortcut.
cdef list _METHODS = [m.encode() for m in w.TYPED_METHODS]
cdef Py_ssize_t _N_METHODS = len(_METHODS)
cdef const char *_METHOD_PTR[_MAX_TYPED]
cdef Py_ssize_t _METHOD_LEN[_MAX_TYPED]
if _N_METHODS > _MAX_TYPED:
    raise ImportError(f"{_N_METHODS} typed notifications: _MAX_TYPED ({_MAX_TYPED}) is too small")
# Which typed methods have each length (a bit per index; the last entry: any longer).
cdef unsigned _METHODS_OF_LEN[_LONG_METHOD + 1]
for _i, _m in enumerate(_METHODS):
    _METHOD_PTR[_i] = PyBytes_AS_STRING(_m)
    _METHOD_LEN[_i] = PyBytes_GET_SIZE(_m)
    _METHODS_OF_LEN[min(_METHOD_LEN[_i], _LONG_METHOD)] |= (<unsigned>1) << _i

# The fast check of encode: _check.h's walk, its plans copied from _plans.PLANS.
include "_check_plans.pxi"
# Decoded wire structs made public in place, struct fields read at their slots.
include "_public.pxi"


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
        except ValueError:  # a released memoryview
            raise ValueError(w.RELEASED_PAYLOAD) from None
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


cdef object _body_scratch = None
cdef bint _body_busy = False


cdef inline object _take_body(const unsigned char *p, Py_ssize_t n):
    """``p[:n]`` (at most ``_COPY_LIMIT`` bytes) for msgspec to read: copied into a
    reused ``bytearray`` (no allocation), or into new ``bytes`` while that is in use (a
    decode within a decode) or without a GIL. Give it back with ``_give_body``."""
    global _body_scratch, _body_busy
    if _GIL_DISABLED or _body_busy:
        return PyBytes_FromStringAndSize(<const char *>p, n)
    if _body_scratch is None:
        _body_scratch = bytearray(_COPY_LIMIT + 1)
    buf = _body_scratch
    _body_busy = True
    Py_SET_SIZE(buf, n)  # within its allocation: no realloc, as PyByteArray_Resize does
    memcpy(PyByteArray_AS_STRING(buf), p, n)
    PyByteArray_AS_STRING(buf)[n] = 0
    return buf


cdef inline void _give_body(object body) noexcept:
    """Done with what ``_take_body`` gave. A scratch something still holds (a value, an
    error's traceback) is left to it, and a new one made next time."""
    global _body_scratch, _body_busy
    if body is _body_scratch:
        _body_busy = False
        if Py_REFCNT(<PyObject *>body) != 2:  # this one and the caller's
            _body_scratch = None


include "_exact.pxi"


#: The docstrings _set_doc gave: C strings the functions read for as long as they live.
cdef list _DOCS = []


def _set_doc(function, str doc):
    """Give ``function``, one of this module's public functions, the docstring ``doc``
    (``"name(signature)\\n--\\n\\n"`` first, for its ``__text_signature__``). The
    public functions are builtins (``binding=False``: CPython calls them as fast as
    msgspec's own) and ``diverge_frames._impl.document`` documents them this way."""
    if function not in (decode_notification, encode_notification, decode_read_resource,
                        encode_read_resource):
        raise TypeError("not a public function of this module")
    encoded = doc.encode()
    _DOCS.append(encoded)
    _set_ml_doc(function, PyBytes_AS_STRING(encoded))


@cython.binding(False)
def decode_notification(payload):
    try:
        return _decode_notification(payload)
    except RecursionError:
        pass  # the caller's stack, not the body (checked before msgspec sees it)
    return _fresh(decode_notification, payload, _NOTIFICATION_TYPES)


cdef object _fresh(object decode, object payload, tuple expected):
    """The decode once more on a fresh stack (``_stack``'s rule): its value, or its error
    raised here."""
    ok, value = run_fresh(decode, payload, expected)
    if ok:
        return value
    raise value


cdef inline object _decode_notification(object payload):
    # inline: the decode's body in the function Python calls (one C call less)
    cdef const unsigned char *p
    cdef Py_ssize_t n = PyBytes_GET_SIZE(payload) - 1 if PyBytes_CheckExact(payload) else -1
    cdef _Split s
    if 0 <= n <= _COPY_LIMIT:
        p = <const unsigned char *>PyBytes_AS_STRING(payload)
        if p[0] == _TAG_NOTIFICATION and n >= _SPLICE_STRING:
            value = _spliced_log(p + 1, n)
            if value is not None:
                return value
        body = _take_body(p + 1, n)
        try:
            return _notification(body, p + 1, n, p[0])
        finally:
            _give_body(body)
    s = _split(payload)
    if _writable(s):
        return _guarded(payload, s, _NOTIFICATION)
    if s.tag == _TAG_NOTIFICATION and s.size >= _SPLICE_STRING:
        value = _spliced_log(s.data, s.size)
        if value is not None:
            return value
    return _notification(s.body, s.data, s.size, s.tag)


cdef object _notification(object body, const unsigned char *p, Py_ssize_t n, int tag):
    cdef df_sj_result r
    if tag == _TAG_NOTIFICATION:
        src = _source(body, p, n, tag, _NOTIFICATION, &r)
        if src is None:
            return _exact(body, tag, _NOTIFICATION, None, &r)
        if _unknown_method(p, n):
            value = _custom(src)
            if value is not None:
                return value
        else:
            try:
                return _notification_decoder(src)
            except _ValidationError:
                pass
            except _DECODE_ERRORS as exc:
                value = _scanned(body, p, n, tag, _NOTIFICATION, &r)
                if value is not None:
                    return value
                raise _msgspec_rejected(body, src, tag, _NOTIFICATION, exc)
        value = _scanned(body, p, n, tag, _NOTIFICATION, &r)
        if value is not None:
            return value
        return decode_custom(src, tag, _exact_of(body))
    if tag == _TAG_ERROR:
        return _decode_error(body, p, n, tag)
    raise UnknownTagError(tag, "notifications")


cdef bint _unknown_method(const unsigned char *p, Py_ssize_t n):
    """True when the body plainly starts ``{"method":"<m>"`` (as rmcp writes it) and
    ``m`` (no escapes) is no typed notification's method: a typed attempt could only
    fail. False whenever in doubt. (Run after ``_needs_exact``: no key is repeated.)"""
    cdef Py_ssize_t m, i
    cdef unsigned candidates
    cdef const unsigned char *end
    if n < 12 or memcmp(p, b'{"method":"', 11) != 0:
        return False
    end = <const unsigned char *>memchr(p + 11, 34, n - 11)  # the first '"'
    if end == NULL:
        return False
    m = end - (p + 11)
    if memchr(p + 11, 92, m) != NULL:  # a '\\' before it: an escape
        return False
    candidates = _METHODS_OF_LEN[min(m, _LONG_METHOD)]
    while candidates:
        i = _lowest_bit(candidates)
        candidates &= candidates - 1
        if _METHOD_LEN[i] == m and memcmp(_METHOD_PTR[i], p + 11, m) == 0:
            return False
    return True


cdef object _custom(object src):
    """rmcp's ``CustomNotification`` for a method no typed class has:
    ``_rmcp.decode_custom`` inlined for the common case (``params`` without
    ``_meta``); None for the rest, errors included (``decode_custom`` decides)."""
    try:
        value = _custom_decoder(src)
    except _DECODE_ERRORS:
        return None
    params = _field(value, _PARAMS_AT)
    if params is not None and "_meta" in params:
        return None
    return value


@cython.binding(False)
def decode_read_resource(payload):
    try:
        return _decode_read_resource(payload)
    except RecursionError:
        pass
    return _fresh(decode_read_resource, payload, _READ_RESOURCE_TYPES)


cdef inline object _decode_read_resource(object payload):
    # inline: the decode's body in the function Python calls (one C call less)
    cdef const unsigned char *p
    cdef Py_ssize_t n = PyBytes_GET_SIZE(payload) - 1 if PyBytes_CheckExact(payload) else -1
    cdef _Split s
    if 0 <= n <= _COPY_LIMIT:
        p = <const unsigned char *>PyBytes_AS_STRING(payload)
        if p[0] == _TAG_RESULT and n >= _SPLICE_STRING:
            value = _spliced_result(p + 1, n)
            if value is not None:
                return value
        body = _take_body(p + 1, n)
        try:
            return _read_resource(body, p + 1, n, p[0])
        finally:
            _give_body(body)
    s = _split(payload)
    if _writable(s):
        return _guarded(payload, s, _RESULT)
    if s.tag == _TAG_RESULT and s.size >= _SPLICE_STRING:
        value = _spliced_result(s.data, s.size)
        if value is not None:
            return value
    return _read_resource(s.body, s.data, s.size, s.tag)


cdef object _read_resource(object body, const unsigned char *p, Py_ssize_t n, int tag):
    cdef df_sj_result r
    if tag == _TAG_RESULT:
        src = _source(body, p, n, tag, _RESULT, &r)
        if src is None:
            return _exact(body, tag, _RESULT, None, &r)
        # No "blob" key: every item must be text (rmcp: a string ``text``); no "text" key:
        # every item must be a blob. Either way straight to the public types (no key at
        # depth 3 or less has an escape here), else the general path decides and words
        # the error.
        one = _D_TEXT_RESULT if not _has_key(p, n, "blob") else (
            _D_BLOB_RESULT if not _has_key(p, n, "text") else -1)
        if one >= 0:
            try:
                value = _call1(&_DECODERS[one], src)
            except Exception:
                pass
            else:
                return _as_public(value)
        try:
            wire = _result_decoder(src)
        except _ValidationError as exc:
            value = _scanned(body, p, n, tag, _RESULT, &r)
            if value is not None:
                return value
            return _exact(body, tag, _RESULT, exc, &r)
        except _DECODE_ERRORS as exc:
            value = _scanned(body, p, n, tag, _RESULT, &r)
            if value is not None:
                return value
            raise _msgspec_rejected(body, src, tag, _RESULT, exc)
        return _result(wire, tag)
    if tag == _TAG_ERROR:
        return _decode_error(body, p, n, tag)
    raise UnknownTagError(tag, "read-resource")


cdef object _decode_error(object body, const unsigned char *p, Py_ssize_t n, int tag):
    cdef df_sj_result r
    src = _source(body, p, n, tag, _ERROR, &r)
    if src is None:
        return _exact(body, tag, _ERROR, None, &r)
    try:
        return _error_decoder(src)
    except _ValidationError as exc:
        value = _scanned(body, p, n, tag, _ERROR, &r)
        if value is not None:
            return value
        return _exact(body, tag, _ERROR, exc, &r)
    except _DECODE_ERRORS as exc:
        value = _scanned(body, p, n, tag, _ERROR, &r)
        if value is not None:
            return value
        raise _msgspec_rejected(body, src, tag, _ERROR, exc)


include "_strings.pxi"


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
    return _public_result(wire, contents)


cdef object _public_result(object wire, list contents):
    """The public ReadResourceResult of a decoded wire shape and its public ``contents``:
    rmcp's ``ttlMs`` clamp to 0 (the compiled copy of ``_rmcp.read_resource_result``'s
    rule; the tests hold both twins to the same values)."""
    ttl_ms = wire.ttl_ms
    if (ttl_ms is None and wire.result_type is None and wire.cache_scope is None
            and wire.meta is None):
        return _Result(contents=contents)
    if ttl_ms is not None and ttl_ms < 0:
        ttl_ms = 0
    return _Result(result_type=wire.result_type, ttl_ms=ttl_ms, cache_scope=wire.cache_scope,
                   contents=contents, meta=wire.meta)


cdef object _tagged_into(const df_method *encode_into, object encode, object value, char tag):
    """``tag`` + the JSON of ``value``: msgspec writes after the tag byte in a reused
    ``bytearray``, then one allocation and copy make the ``bytes`` (``encode`` alone
    allocates, grows and shrinks its own buffer). Nothing in msgspec's encode runs
    Python code or lets the GIL go, so one scratch buffer serves every thread; without a
    GIL (free-threaded CPython), or if the buffer is in use, ``_tagged`` does it."""
    global _scratch
    buf = _scratch
    if _GIL_DISABLED or buf is None:
        return _tagged(encode, value, tag)
    _scratch = None
    try:
        _call3(encode_into, value, buf, 1)
        PyByteArray_AS_STRING(buf)[0] = tag
        out = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(buf), PyByteArray_GET_SIZE(buf))
    finally:
        _scratch = buf if PyByteArray_GET_SIZE(buf) <= _SCRATCH_KEEP else bytearray(1024)
    return out


cdef enum:
    _SHAPE_SMALL = 0      # a few short contents: the scratch buffer is the faster way
    _SHAPE_LARGE = 1      # left to msgspec's own buffer, grown once and shrunk in place
    _SHAPE_LONG_BLOB = 2  # a long ASCII blob: _spliced_encode


cdef int _result_shape(object value):
    """Which way a ReadResourceResult is best encoded, from one look at its contents."""
    contents = _get(value, _CONTENTS_AT, "contents")
    cdef Py_ssize_t size = 0
    cdef bint few
    cdef int shape = _SHAPE_SMALL
    if type(contents) is not list:
        return _SHAPE_LARGE
    few = len(contents) <= 4
    for item in contents:
        cls = type(item)
        if cls is _Blob:
            s = _get(item, _BLOB_AT, "blob")
            if type(s) is not str:
                shape = _SHAPE_LARGE
                continue
            if PyUnicode_GET_LENGTH(s) >= _LONG_BLOB and PyUnicode_IS_ASCII(s):
                return _SHAPE_LONG_BLOB
        elif cls is _Text:
            if not few:
                continue  # only a blob can change the answer now
            s = _get(item, _TEXT_AT, "text")
            if type(s) is not str:
                shape = _SHAPE_LARGE
                continue
        else:
            shape = _SHAPE_LARGE
            continue
        size += PyUnicode_GET_LENGTH(s)
    return shape if few and size < 4096 else _SHAPE_LARGE


cdef object _tagged(object encode, object value, char tag):
    """``tag`` + ``encode(value)``: the tag is written into the encoder's fresh bytes,
    grown in place by one byte, rather than into a second buffer and copy."""
    cdef PyObject *out = PyObject_CallOneArg(encode, value)
    cdef Py_ssize_t n
    cdef char *buf
    if Py_REFCNT(out) != 1 or not PyBytes_CheckExact(<object>out):
        result = <object>out
        Py_DECREF(out)
        return bytes((<unsigned char>tag,)) + result
    n = PyBytes_GET_SIZE(<object>out)
    _PyBytes_Resize(&out, n + 1)
    buf = PyBytes_AS_STRING(<object>out)
    memmove(buf + 1, buf, n)
    buf[0] = tag
    result = <object>out
    Py_DECREF(out)
    return result


@cython.binding(False)
def encode_notification(value):
    cdef bytes out
    cdef int i = _top(value)
    if i < 0:
        raise TypeError(
            "a notification channel carries a ServerNotification or ErrorData,"
            f" not {type(value).__name__}"
        )
    if not _ok(value, _TOP_PLAN[i]):
        value = _check(value)  # its canonical copy, or its TypeError/ValueError
    try:
        if i == _I_CUSTOM:
            params = _get(value, _PARAMS_AT, "params")
            if type(params) is dict and "_meta" not in params:
                out = _tagged_into(_encode_into, _encode, value, 0)  # rmcp's order, the encoder's
            else:
                out = _tagged(encode_custom, value, 0)
        elif i == _I_ERROR:
            out = _tagged_into(_encode_into, _encode, value, 1)
        else:
            out = _tagged_into(_encode_notification_into, _encode_notification, value, 0)
    except UnicodeEncodeError:
        raise _unicode_error(value) from None  # a str msgspec cannot write: its path
    if _exponent_candidate(<const unsigned char *>PyBytes_AS_STRING(out), PyBytes_GET_SIZE(out)):
        return _signed_exponents(out)
    return out


@cython.binding(False)
def encode_read_resource(value):
    cls = type(value)
    cdef bytes out
    try:
        if cls is _Result:
            if not _ok(value, _RESULT_PLAN):
                value = _check(value)
            shape = _result_shape(value)
            if shape == _SHAPE_LONG_BLOB:
                out = _spliced_encode(value)
                if out is not None:
                    return out
            if shape == _SHAPE_SMALL:
                out = _tagged_into(_encode_into, _encode, value, 0)
            else:
                out = _tagged(_encode, value, 0)
        elif cls is _ErrorData:
            if not _ok(value, _TOP_PLAN[_I_ERROR]):
                value = _check(value)
            out = _tagged_into(_encode_into, _encode, value, 1)
        else:
            raise TypeError(
                "a read-resource channel carries a ReadResourceResult or ErrorData,"
                f" not {cls.__name__}"
            )
    except UnicodeEncodeError:
        raise _unicode_error(value) from None  # a str msgspec cannot write: its path
    if _exponent_candidate(<const unsigned char *>PyBytes_AS_STRING(out), PyBytes_GET_SIZE(out)):
        return _signed_exponents(out)
    return out


cdef object _spliced_encode(object value):
    """The blob fast path on encode: ``b"\\x00"`` + the JSON of a ReadResourceResult
    holding a long ASCII blob, or None for the general path. msgspec escapes a long
    string a byte at a time; here the result is encoded with each long blob replaced by a
    one-byte mark, then each blob is copied in place of its mark while it is checked for
    a byte JSON must escape (any there: None). The bytes are those msgspec would write,
    for a value that does not change while it is encoded (a ``tzinfo`` in a ``_meta``
    that mutates a later blob would be seen by msgspec, not here: not supported).
    """
    contents = value.contents
    cdef list blobs = []
    cdef list marked = None
    cdef Py_ssize_t i, k, n, total, at, start, m
    cdef const char *sk
    if type(contents) is not list:
        return None  # msgspec encodes whatever is there; the general path does
    cdef const char *q
    cdef char *out
    for i in range(len(contents)):
        item = contents[i]
        if type(item) is not _Blob:
            continue
        blob = (<object>item).blob
        if (type(blob) is not str or PyUnicode_GET_LENGTH(blob) < _LONG_BLOB
                or not PyUnicode_IS_ASCII(blob)):
            continue
        if marked is None:
            marked = list(contents)
        marked[i] = copy = item.__copy__()
        copy.blob = _BLOB_MARK
        blobs.append(blob)
    if marked is None:
        return None
    shell = value.__copy__()
    shell.contents = marked
    skeleton = _encode(shell)
    sk = PyBytes_AS_STRING(skeleton)
    n = PyBytes_GET_SIZE(skeleton)
    if _exponent_candidate(<const unsigned char *>sk, n):
        return None
    total = 1 + n
    for blob in blobs:
        total += PyUnicode_GET_LENGTH(blob) + 1
    result = PyBytes_FromStringAndSize(NULL, total)
    out = PyBytes_AS_STRING(result)
    out[0] = 0
    at = 1
    start = 0
    for blob in blobs:
        q = <const char *>memchr(sk + start, 0, n - start)
        if q == NULL:
            return None
        k = q - sk
        memcpy(out + at, sk + start, k - start)
        at += k - start
        out[at] = 34
        m = PyUnicode_GET_LENGTH(blob)
        if _copy_checked(<unsigned char *>out + at + 1,
                         <const unsigned char *>PyUnicode_DATA(blob), m, 0x22):
            return None  # an ASCII str, so only an escape can be seen
        at += m + 1
        out[at] = 34
        at += 1
        start = k + 1
    if memchr(sk + start, 0, n - start) != NULL:
        return None  # a NUL the marks do not explain: let msgspec's output stand
    memcpy(out + at, sk + start, n - start)
    return result


cdef bint _exponent_candidate(const unsigned char *p, Py_ssize_t n) noexcept nogil:
    """True when msgspec's output ``p`` holds a float exponent outside a string (``1e16``,
    which rmcp writes ``1e+16``). Looks for an ``e`` followed by a digit (rare,
    ``_e_digit``); where there is one shaped like msgspec's exponent (a digit before it,
    a ``,`` ``}`` ``]`` or the end after its digits: not ``38e0-`` in a UUID), a look at
    whether it is outside every string."""
    cdef Py_ssize_t k = _e_digit(p, n, 0)
    while k >= 0:
        if _exponent_shaped(p, n, k):
            return _exponent_outside_strings(p, n)
        k = _e_digit(p, n, k + 1)
    return False


cdef inline bint _exponent_shaped(const unsigned char *p, Py_ssize_t n,
                                  Py_ssize_t i) noexcept nogil:
    """Whether the ``e`` at ``p[i]`` (a digit after it) could end a float msgspec wrote:
    a digit before it, and after its digits the end or ``,`` ``}`` ``]`` (compact JSON)."""
    cdef Py_ssize_t j = i + 1
    if i == 0 or not 48 <= p[i - 1] <= 57:
        return False
    while j < n and 48 <= p[j] <= 57:
        j += 1
    return j == n or p[j] == 44 or p[j] == 125 or p[j] == 93


cdef bint _exponent_outside_strings(const unsigned char *p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i = 0
    cdef int flags = 0
    while i < n:
        if p[i] == 34:  # skip the string
            i = _string_end(p, n, i + 1, &flags)
            if i < 0:
                return False
            i += 1
            continue
        if p[i] == 101 and i + 1 < n and 48 <= p[i + 1] <= 57 and i > 0 and 48 <= p[i - 1] <= 57:
            return True
        i += 1
    return False
