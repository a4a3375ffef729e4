# cython: language_level=3, boundscheck=False, wraparound=False
# cython: freethreading_compatible=True
"""The hot path compiled: tag split, dispatch to a cached decoder, encode.

Twin of ``_frames_py.py``; both pass the same tests and give the same values, bytes and
errors. What only the compiled path does, all for speed and none visible:

* a ``bytes`` payload up to ``_COPY_LIMIT`` bytes is decoded from a copy of its body in
  one reused ``bytearray`` (``_take_body``: a small copy costs less than a memoryview,
  and no allocation less than one); any larger or other payload through a read-only
  memoryview over its buffer (no copy);
* a notification whose body plainly starts ``{"method":"<m>"`` (whitespace allowed
  between those tokens) is read as the class of its typed method ``m`` alone (no
  look-up of the tag in the union), or, ``m`` no typed method, goes straight to the
  custom-notification fallback (no failed typed attempt);
* a read-resource body without a ``"blob"`` key, or without a ``"text"`` one, is decoded
  straight to the public types, its wire result made the public ``ReadResourceResult``
  in place (``_public.pxi``);
* msgspec's decoders and encoders are called through their C functions, the public
  functions are builtins (no Cython function object between CPython and them), and
  struct fields on the hot path are read at their slots (``_capi.h``);
* in a read-resource body each long ``"text":"..."`` or ``"blob":"..."`` string, and
  the long ``"data":"..."`` of a logging-message notification, is built into its
  ``str`` in C, read once, its escapes replaced as it is copied 64 bytes a step, and cut
  out before msgspec (and ``_precheck``) see the rest (``_spliced_result`` and
  ``_spliced_log``, in ``_strings.pxi``);
* a ReadResourceResult holding a long text or blob is encoded with each such string
  replaced by a mark (in its slot for the while, under the GIL), then the string written
  in its place by C, 64 bytes a step, escaped as serde_json escapes it
  (``_spliced_encode``, ``df_string_write``);
* a notification, an error or a small result is encoded into a reused scratch
  ``bytearray`` after the tag byte, then copied once into its ``bytes``; anything else
  has the tag byte written into msgspec's own output buffer (no second copy).

Whenever one of these meets anything unusual it steps aside and the general path
(the twin's) decides, errors included. Encode checks every value as the twin does
(``_checks.check``), after a walk in C of the same plans (``_check.h``) that lets a
value it can see is canonical through without a call into Python.

The pre-check is serde_json's reading in C (``_serde_json.h``, ``_precheck.pxi``): a body
msgspec would read otherwise is written again so that it does not (``_rewrite``:
numbers spelled as serde_json's f64), and rmcp's rules that need a body's repeated keys
read a tree built from msgspec's reading of that rewrite (``_exact``); no body is read
by Python code. A result whose only such rule is the item rule of its ``contents``
(rmcp's untagged ``ResourceContents``: a repeated ``text`` or ``blob`` dropped, a shared
member repeated rejected) has it applied in C to a copy of the body, which msgspec then
reads as a plain one (``_items.pxi``): no tree, no Python per item. A writable buffer
is copied, and the copy decoded, so that another thread that writes to it meanwhile
cannot tear the value.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from cpython.bytes cimport (PyBytes_AS_STRING, PyBytes_CheckExact, PyBytes_FromStringAndSize,
                            PyBytes_GET_SIZE)
from cpython.long cimport PyLong_CheckExact
from cpython.ref cimport PyObject
from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memchr, memcmp, memcpy, memmove

cimport cython

import msgspec

from . import _checks, _plans
from . import _wire as w
from . import types as t
from ._exact.rejection import detached, item_rejection, rejection, utf8_rejection
from ._exact.rmcp_custom import custom, encode_custom
from ._exact.rmcp_positions import STRUCT_POSITIONS, models_below
from ._exact.rmcp_read import decode_exact
from ._exact.rmcp_result import NEITHER_TEXT_NOR_BLOB, NO_VARIANT
from ._exact.rmcp_structs import (EXPECT_ERROR, EXPECT_NOTIFICATION, EXPECT_RESULT, EXPECTED,
                                  STRUCT_DEPTH, duplicate_field)
from ._exact.serde_json import REASONS, reject, tree
from ._stack import MSGSPEC_MESSAGE_OPENINGS, run_fresh
from .errors import EmptyFrameError, FrameBodyError, UnknownTagError

cdef extern from "Python.h":
    object PyMemoryView_FromMemory(char *mem, Py_ssize_t size, int flags)
    int PyBUF_READ
    PyObject *PyObject_CallOneArg(object callable, object arg) except NULL
    object PyObject_CallNoArgs(object callable)
    int _PyBytes_Resize(PyObject **bytes, Py_ssize_t newsize) except -1
    Py_ssize_t Py_REFCNT(PyObject *o)
    void Py_SET_SIZE(object o, Py_ssize_t size)
    void Py_DECREF(PyObject *o)
    void Py_INCREF(PyObject *o)
    void Py_XDECREF(PyObject *o)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void *PyUnicode_DATA(object o)
    object PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    bint PyUnicode_IS_ASCII(object o)
    PyObject *_new_str "PyUnicode_New"(Py_ssize_t size, Py_UCS4 maxchar) except NULL
    int PyUnicode_Resize(PyObject **unicode, Py_ssize_t length) except -1
    void *_str_data "PyUnicode_DATA"(PyObject *o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    int PyUnicode_KIND(object o)

cdef extern from "_capi.h":
    # Calls and reads that skip a generic layer of the C API (see the header).
    ctypedef struct df_method:
        pass
    int _method_init "df_method_init"(df_method *m, object callable) except -1
    bint _method_fast "df_method_fast"(const df_method *m) noexcept
    const char *_str_utf8_kept "df_str_utf8"(object s, Py_ssize_t *size) except NULL
    object _call1 "df_call1"(const df_method *m, object a)
    object _call3 "df_call3"(const df_method *m, object a, object b, object c)
    void _set_type "df_set_type"(object obj, object type) noexcept
    PyObject *_member_swap "df_member_swap"(object obj, Py_ssize_t offset,
                                            PyObject *value) noexcept
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
    Py_ssize_t _method_start "df_method_start"(const unsigned char *p,
                                               Py_ssize_t n) noexcept nogil
    Py_ssize_t _e_digit "df_e_digit"(const unsigned char *p, Py_ssize_t n,
                                     Py_ssize_t i) noexcept nogil
    bint _has_key "df_has_key"(const unsigned char *p, Py_ssize_t n,
                               const char *name) noexcept nogil
    unsigned _lowest_bit "df_lowest_bit"(unsigned m) noexcept nogil


cdef int _TAG_NOTIFICATION = w.TAG_NOTIFICATION
cdef int _TAG_RESULT = w.TAG_RESULT
cdef int _TAG_ERROR = w.TAG_ERROR
#: A bytes payload up to this long is decoded from a copy of its body: one small
#: allocation and memcpy cost less than a memoryview (and msgspec reads bytes fastest).
cdef Py_ssize_t _COPY_LIMIT = 16384
#: A text or blob at least this long (in characters) is encoded by ``_spliced_encode``.
cdef Py_ssize_t _LONG_ENCODE = 4096

# msgspec's decoders and encoders, each called through its C function (_capi.h).
cdef df_method _DECODERS[_N_DECODERS]
_method_init(&_DECODERS[_D_NOTIFICATION], w.notification_decoder.decode)
_method_init(&_DECODERS[_D_CUSTOM], w.custom_decoder.decode)
_method_init(&_DECODERS[_D_RESULT], w.result_decoder.decode)
_method_init(&_DECODERS[_D_TEXT_RESULT], w.text_result_decoder.decode)
_method_init(&_DECODERS[_D_BLOB_RESULT], w.blob_result_decoder.decode)
_method_init(&_DECODERS[_D_ERROR], w.error_decoder.decode)
cdef df_method _ENCODE_INTO
_method_init(&_ENCODE_INTO, w.encoder.encode_into)
cdef df_method *_encode_into = &_ENCODE_INTO
# The same encoder without order="deterministic", for a value whose dicts are all in
# sorted order already (_check.h's df_keys_ordered): the same bytes, no sort.
cdef df_method _ENCODE_INTO_UNSORTED
_method_init(&_ENCODE_INTO_UNSORTED, w.unsorted_encoder.encode_into)
cdef df_method *_encode_into_unsorted = &_ENCODE_INTO_UNSORTED
#: Whether every one of them is called through its C function (for the tests).
FAST_CALLS = all([_method_fast(&_DECODERS[_i]) for _i in range(_N_DECODERS)]
                 + [_method_fast(&_ENCODE_INTO), _method_fast(&_ENCODE_INTO_UNSORTED)])

cdef enum:
    # What _COUNTS counts: msgspec's readings of a body, and serde_json's scans in C.
    _READS
    _SCANS
#: How often each happened since ``_counts()`` last said (with a GIL only: a count kept
#: without one would race), for the test that counts a decode's readings. A reading
#: that gives the value is not counted (nor is any step of the fast paths that do not
#: fail): the counts cost nothing on the way most frames take.
cdef Py_ssize_t _COUNTS[2]


cdef void _count(int what) noexcept nogil:
    # Out of line: only the paths that failed once call it.
    if not _GIL_DISABLED:
        _COUNTS[what] += 1


def _counts():
    """``(reads, scans)`` since the last call, or None on free-threaded CPython.

    ``reads``: msgspec's readings of a body after which the decode went on (a typed
    attempt that failed, the general reading of the exact path); ``scans``: the C scans
    of a body. A typed attempt that gives the value is not counted.
    """
    if _GIL_DISABLED:
        return None
    counts = (_COUNTS[_READS], _COUNTS[_SCANS])
    _COUNTS[_READS] = _COUNTS[_SCANS] = 0
    return counts


cdef inline object _decode(int which, object body):
    """``body`` read by msgspec with ``_DECODERS[which]``."""
    return _call1(&_DECODERS[which], body)

cdef inline object _custom_decoder(object body):
    return _decode(_D_CUSTOM, body)

cdef inline object _result_decoder(object body):
    return _decode(_D_RESULT, body)

cdef inline object _text_result_decoder(object body):
    return _decode(_D_TEXT_RESULT, body)

cdef inline object _error_decoder(object body):
    return _decode(_D_ERROR, body)

cdef object _decode_any = w.any_decoder.decode


cdef inline object _any_decoder(object body):
    """``body`` read by msgspec as any JSON (the exact reading's general reading)."""
    _count(_READS)
    return _decode_any(body)
cdef object _encode = w.encoder.encode
cdef object _encode_unsorted = w.unsorted_encoder.encode
#: Where small outputs are encoded (tag byte first) before one copy into their bytes;
#: None while in use. Kept only while it stays small.
cdef object _scratch = bytearray(1024)
cdef Py_ssize_t _SCRATCH_KEEP = 16384
cdef tuple _DECODE_ERRORS = w.DECODE_ERRORS  # msgspec's errors, every version allowed
cdef object _ValidationError = msgspec.ValidationError
cdef object _Text = t.TextResourceContents
#: What a long text or blob is replaced with while the rest of a result is encoded:
#: msgspec writes a Raw as is, and a NUL byte appears nowhere else in its JSON output.
cdef object _STRING_MARK = msgspec.Raw(b"\x00")
cdef object _Blob = t.BlobResourceContents
cdef object _Result = t.ReadResourceResult
cdef str _NEITHER_TEXT_NOR_BLOB = NEITHER_TEXT_NOR_BLOB


cdef object _Custom = t.CustomNotification
cdef object _ErrorData = t.ErrorData
cdef object _Logging = t.LoggingMessageNotification
#: What tags 0 and 1 announce on each channel (for an error of ``run_fresh``).
cdef tuple _NOTIFICATION_TYPES = ("ServerNotification", "ErrorData")
cdef tuple _READ_RESOURCE_TYPES = ("ReadResourceResult", "ErrorData")
cdef enum:
    # The deepest nesting serde_json reads (_exact.serde_json.MAX_DEPTH; the header's
    # DF_SJ_MAX_DEPTH, held equal at import by _precheck.pxi), for the encode check's walk.
    _MAX_DEPTH = 127
    # Room for the typed methods of the method shortcuts (a bit each in an unsigned),
    # and the method length from which they are looked up together.
    _MAX_TYPED = 32
    _LONG_METHOD = 63

cdef enum:
    # What _method_of says besides a typed method's index.
    _UNKNOWN_METHOD = -1  # no typed notification's method
    _SOME_METHOD = -2     # in doubt

# The typed methods as C strings, for the method shortcuts (_method_of).
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
# Decoded wire structs made public in place (results, list-changed and cancelled
# notifications), struct fields read at their slots.
include "_public.pxi"
# serde_json's reading in C: the pre-check, the rewrite for msgspec, the exact reading.
include "_precheck.pxi"
# rmcp's item rule for a result's contents, in C.
include "_items.pxi"
# The plainest errors and results rmcp writes, read at once in C.
include "_plain.pxi"
# Long strings built in C and cut out of a body before msgspec reads the rest.
include "_strings.pxi"
# Encode, its checks and serde_json's exponents.
include "_encode.pxi"


# ------------------------------------------------------------------ the split and its guard


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


cdef inline bint _writable(_Split s):
    return s.held and not s.view.readonly


cdef object _guarded(object payload, _Split s, int expected):
    """The decode of a writable buffer (another thread may write to it meanwhile): a
    copy of it decoded, one state of it, as the pure twin does. (A checksum before and
    after misses a buffer written back to its first state during the decode.)"""
    return _again(payload, expected)


cdef object _again(object payload, int expected):
    copy = bytes(payload)
    if expected == _EXPECT_NOTIFICATION:
        return _decode_notification(copy)
    return _decode_read_resource(copy)


# ------------------------------------------------------------------ decode


#: The docstrings _set_doc gave: C strings the functions read for as long as they live.
cdef list _DOCS = []


def _set_doc(function, str doc):
    """Give ``function``, one of this module's public functions, the docstring ``doc``.

    Its signature is written first (``"name(parameter)\\n--\\n\\n"``, for its
    ``__text_signature__``: the pure twin's, which a test holds it to). The public
    functions are builtins (``binding=False``: CPython calls them as fast as msgspec's
    own) and ``diverge_frames._docs.document`` documents them this way.
    """
    if function in (decode_notification, decode_read_resource):
        doc = f"{function.__name__}(payload)\n--\n\n{doc}"
    elif function in (encode_notification, encode_read_resource):
        doc = f"{function.__name__}(value)\n--\n\n{doc}"
    else:
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
        if p[0] == _TAG_NOTIFICATION:
            if n <= _BARE_LONGEST:
                value = _bare(p + 1, n)
                if value is not None:
                    return value
            elif n >= _SPLICE_STRING:
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
        return _guarded(payload, s, _EXPECT_NOTIFICATION)
    if s.tag == _TAG_NOTIFICATION:
        if s.size <= _BARE_LONGEST:
            value = _bare(s.data, s.size)
            if value is not None:
                return value
        elif s.size >= _SPLICE_STRING:
            value = _spliced_log(s.data, s.size)
            if value is not None:
                return value
    return _notification(s.body, s.data, s.size, s.tag)


cdef object _notification(object body, const unsigned char *p, Py_ssize_t n, int tag):
    cdef df_sj_result r
    cdef int method
    if tag == _TAG_NOTIFICATION:
        src = _source(body, p, n, tag, _EXPECT_NOTIFICATION, &r)
        if src is None:
            return _exact(body, tag, _EXPECT_NOTIFICATION, None, &r)
        method = _method_of(p, n)
        if method == _UNKNOWN_METHOD:
            value = _custom_fast(src, r.top == _GLANCED and not r.watched & _SAW_META)
            if value is not None:
                return value
        else:
            try:
                return _notification_decoder(src, method)
            except _ValidationError:
                pass
            except _DECODE_ERRORS as exc:
                value = _scanned(body, p, n, tag, _EXPECT_NOTIFICATION, &r)
                if value is not None:
                    return value
                raise _msgspec_rejected(body, src, tag, _EXPECT_NOTIFICATION, exc)
            # A misfit of the typed variants: the scan (once, if only glanced at so
            # far), then the custom reading, unless serde's forms are in its params.
            value = _scanned(body, p, n, tag, _EXPECT_NOTIFICATION, &r)
            if value is not None:
                return value
            value = _misfit(src, tag)
            if value is not None:
                return value
        # A custom notification the fast path left, or serde's forms of a typed
        # method's params: the scan (once, if only glanced at so far), then one general
        # read decides.
        value = _scanned(body, p, n, tag, _EXPECT_NOTIFICATION, &r)
        if value is not None:
            return value
        return _exact(body, tag, _EXPECT_NOTIFICATION, None, &r)
    if tag == _TAG_ERROR:
        return _decode_error(body, p, n, tag)
    raise UnknownTagError(tag, "notifications")


cdef int _method_of(const unsigned char *p, Py_ssize_t n):
    """The body's method, when it plainly starts ``{"method":"<m>"`` (as rmcp writes
    it, or with JSON whitespace between those tokens) with ``m`` unescaped: the index of
    ``m`` in ``_METHODS`` when it is a typed notification's method (the body is read as
    that class alone), ``_UNKNOWN_METHOD`` when it is none (a typed attempt could only
    fail); ``_SOME_METHOD`` whenever in doubt (the union decides). (Run after
    ``_precheck``: no key is repeated.)"""
    cdef Py_ssize_t m, i, start = _method_start(p, n)
    cdef unsigned candidates
    cdef const unsigned char *end
    if start < 0:
        return _SOME_METHOD
    end = <const unsigned char *>memchr(p + start, 34, n - start)  # the first '"'
    if end == NULL:
        return _SOME_METHOD
    m = end - (p + start)
    if memchr(p + start, 92, m) != NULL:  # a '\\' before it: an escape
        return _SOME_METHOD
    candidates = _METHODS_OF_LEN[min(m, _LONG_METHOD)]
    while candidates:
        i = _lowest_bit(candidates)
        candidates &= candidates - 1
        if _METHOD_LEN[i] == m and memcmp(_METHOD_PTR[i], p + start, m) == 0:
            return <int>i
    return _UNKNOWN_METHOD


cdef object _misfit(object src, int tag):
    """rmcp's ``CustomNotification`` for a typed method whose params its typed variant
    does not read (``_exact.rmcp_custom.custom``: the typed attempt failed, the scan found
    no rule to apply), or None: the exact reading decides (serde's forms in the params,
    or an error). The typed attempt's partial value is gone; this reading is the value."""
    try:
        value = _custom_decoder(src)
    except _DECODE_ERRORS:
        return None
    return custom(value, tag)


# ------------------------------------------------------------------ bare notifications

# The typed notifications read from ``{"method":"<m>"}`` alone (no params), rmcp's bytes
# for them (the list-changed ones): for each, those bytes and the copy method of the
# value the decode gives them (_bare_notifications, at the end of this module).
cdef enum:
    _MAX_BARE = 16
cdef Py_ssize_t _N_BARE = 0
cdef Py_ssize_t _BARE_LONGEST = -1  # the longest body in the table (-1: none yet)
cdef const char *_BARE_PTR[_MAX_BARE]
cdef Py_ssize_t _BARE_LEN[_MAX_BARE]
cdef list _BARE_KEPT = []  # what the pointers and copies above point into


cdef inline object _bare(const unsigned char *p, Py_ssize_t n):
    """The notification of a body ``p[:n]`` that is byte for byte one of rmcp's bare
    notifications, or None: a copy of the value the decode gave those bytes at import
    (its members all None or a str, so a copy is that decode's value, a new object)."""
    cdef Py_ssize_t i
    for i in range(_N_BARE):
        if _BARE_LEN[i] == n and memcmp(_BARE_PTR[i], p, n) == 0:
            return PyObject_CallNoArgs(<object>_BARE_COPY[i])
    return None


cdef PyObject *_BARE_COPY[_MAX_BARE]


cdef object _custom_fast(object src, bint no_meta):
    """rmcp's ``CustomNotification`` for a method no typed class has, or None.

    The fast path of ``_exact.rmcp_custom.custom`` for the common case (``params``
    without ``_meta``); None for the rest, errors included (the exact reading decides).
    ``no_meta``: the glance saw no ``"_meta"`` key where params' would be (none looked
    for in them)."""
    try:
        value = _custom_decoder(src)
    except _DECODE_ERRORS:
        return None
    if no_meta:
        return value
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
        return _guarded(payload, s, _EXPECT_RESULT)
    if s.tag == _TAG_RESULT and s.size >= _SPLICE_STRING:
        value = _spliced_result(s.data, s.size)
        if value is not None:
            return value
    return _read_resource(s.body, s.data, s.size, s.tag)


cdef object _read_resource(object body, const unsigned char *p, Py_ssize_t n, int tag):
    cdef df_sj_result r
    if tag == _TAG_RESULT:
        value = _plain_result_data(p, n)  # as rmcp writes one of text or blob items alone
        if value is not None:
            return value
        src = _source(body, p, n, tag, _EXPECT_RESULT, &r)
        if src is None:
            value = _items_read(body, p, n, tag, &r)
            if value is not None:
                return value
            return _exact(body, tag, _EXPECT_RESULT, None, &r)
        # No "blob" key: every item must be text (rmcp: a string ``text``); no "text" key:
        # every item must be a blob. Either way straight to the public types, else the
        # general path decides and words the error. Only when no key can be escaped (a
        # "t\u0065xt" key is a text): the glance found none at the items' depth or less
        # (and says which of the two keys it saw there), or the body has no backslash at
        # all (and then "blob" or "text" in quotes anywhere in it counts as a key).
        one = -1
        if r.top == _GLANCED:
            one = _D_TEXT_RESULT if not r.watched & _SAW_BLOB else (
                _D_BLOB_RESULT if not r.watched & _SAW_TEXT else -1)
        elif memchr(p, 92, n) == NULL:
            one = _D_TEXT_RESULT if not _has_key(p, n, "blob") else (
                _D_BLOB_RESULT if not _has_key(p, n, "text") else -1)
        if one >= 0:
            try:
                value = _decode(one, src)
            except _DECODE_ERRORS as exc:
                _count(_READS)
                if not _about_its_member(one, exc):  # what the general decoder says too
                    return _result_failed(body, src, p, n, tag, &r, exc)
            except Exception:
                _count(_READS)
            else:
                return _as_public(value)
        try:
            wire = _result_decoder(src)
        except _DECODE_ERRORS as exc:
            return _result_failed(body, src, p, n, tag, &r, exc)
        return _result(wire, tag)
    if tag == _TAG_ERROR:
        return _decode_error(body, p, n, tag)
    raise UnknownTagError(tag, "read-resource")


cdef bint _about_its_member(int one, object exc):
    """Whether msgspec's error ``exc`` of the straight text (or blob) decoder ``one`` is
    about the member its items require, ``text`` (``blob``), which the general decoder's
    items take as any value: else that decoder, whose checks are the same but for that
    member, meets the same first error, and is not asked."""
    text = str(exc)
    member = "text" if one == _D_TEXT_RESULT else "blob"
    return f"field `{member}`" in text or f".{member}`" in text


cdef object _result_failed(object body, object src, const unsigned char *p, Py_ssize_t n,
                           int tag, df_sj_result *r, object exc):
    """The value or rejection of a result body msgspec's general decoder rejects with
    ``exc`` (a rule msgspec does not know may read it: ``_scanned``, the exact reading)."""
    value = _scanned(body, p, n, tag, _EXPECT_RESULT, r)
    if value is not None:
        return value
    if isinstance(exc, _ValidationError):
        # Inside contents, of a body msgspec read as it is and no rule applies to:
        # the exact reading rejects it too, worded by exc (the pure twin's rule).
        error = item_rejection(tag, exc, body, _numbers_plain(body)) if src is body else None
        if error is not None:
            raise error
        return _exact(body, tag, _EXPECT_RESULT, exc if src is body else None, r)
    raise _msgspec_rejected(body, src, tag, _EXPECT_RESULT, exc)


cdef object _decode_error(object body, const unsigned char *p, Py_ssize_t n, int tag):
    cdef df_sj_result r
    value = _plain_error_data(p, n)  # as rmcp writes one without data
    if value is not None:
        return value
    src = _source(body, p, n, tag, _EXPECT_ERROR, &r)
    if src is None:
        return _exact(body, tag, _EXPECT_ERROR, None, &r)
    try:
        return _error_decoder(src)
    except _ValidationError as exc:
        value = _scanned(body, p, n, tag, _EXPECT_ERROR, &r)
        if value is not None:
            return value
        # msgspec's words of a rewrite (a skipped value written null) are not the body's
        return _exact(body, tag, _EXPECT_ERROR, exc if src is body else None, &r)
    except _DECODE_ERRORS as exc:
        value = _scanned(body, p, n, tag, _EXPECT_ERROR, &r)
        if value is not None:
            return value
        raise _msgspec_rejected(body, src, tag, _EXPECT_ERROR, exc)


cdef list _BARE_WRITTEN_KEPT = []  # what _BARE_WRITTEN points to


cdef _bare_written(object value, bytes body):
    """Let encode write ``value``'s class, when all its members are None, as the tag byte
    and ``body``: where ``value`` (the decode of ``body``, its members all None) is
    written so by the general path."""
    cdef int i = _top(value)
    out = bytes([_TAG_NOTIFICATION]) + body
    if (i >= 0 and _BARE_WRITTEN[i] == NULL and _all_none(value, _TOP_PLAN[i])
            and encode_notification(value) == out):
        _BARE_WRITTEN_KEPT.append(out)
        _BARE_WRITTEN[i] = <PyObject *>out


def _bare_notifications():
    """Fill the table of ``_bare``: each typed method whose ``{"method":"<m>"}`` decodes
    (by the path ``_bare`` stands in for, before the table has it) to a value whose
    members are all None or a str (nothing a copy would share that could change)."""
    global _N_BARE, _BARE_LONGEST
    for method in w.TYPED_METHODS:
        body = b'{"method":"%s"}' % method.encode()
        try:
            value = _decode_notification(bytes([_TAG_NOTIFICATION]) + body)
        except Exception:
            continue  # its params are required
        members = [getattr(value, name) for name in value.__struct_fields__]
        if not all(m is None or type(m) is str for m in members):
            continue
        if _N_BARE == _MAX_BARE:
            raise ImportError(f"more than {_MAX_BARE} bare notifications: _MAX_BARE")
        _bare_written(value, body)
        copy = value.__copy__
        _BARE_KEPT.extend((body, copy))
        _BARE_PTR[_N_BARE] = PyBytes_AS_STRING(body)
        _BARE_LEN[_N_BARE] = len(body)
        _BARE_COPY[_N_BARE] = <PyObject *>copy
        _N_BARE += 1
    _BARE_LONGEST = max([len(body) for body in _BARE_KEPT[::2]], default=-1)


_bare_notifications()
#: The methods ``_bare`` reads (for the tests).
BARE_METHODS = tuple(
    [bytes(body)[11:-2].decode() for body in _BARE_KEPT[::2]]
)
