# Included by _frames_c.pyx, after _check_plans.pxi: encode. A value is checked along
# its plan (the C walk of _check_plans.pxi, else _checks.check), written by msgspec
# after the tag byte, and each float exponent then written as serde_json writes it.

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
    cdef df_floats floats
    cdef int i = _top(value)
    if i < 0:
        raise TypeError(
            "a notification channel carries a ServerNotification or ErrorData,"
            f" not {type(value).__name__}"
        )
    if not _ok_floats(value, _TOP_PLAN[i], &floats):
        value = _check(value)  # its canonical copy, or its TypeError/ValueError
        floats.n = 0
    try:
        if i == _I_CUSTOM:
            params = _get(value, _PARAMS_AT, "params")
            if type(params) is dict and "_meta" not in params:
                # rmcp's order, the encoder's
                out = _tagged_into(_encode_into, _encode, value, _TAG_NOTIFICATION)
            else:
                out = _tagged(encode_custom, value, _TAG_NOTIFICATION)
        elif i == _I_ERROR:
            out = _tagged_into(_encode_into, _encode, value, _TAG_ERROR)
        else:
            out = _tagged_into(_encode_into, _encode, value, _TAG_NOTIFICATION)
    except UnicodeEncodeError:
        raise _unicode_error(value) from None  # a str msgspec cannot write: its path
    if floats.n:
        out = _floats_written(out, &floats)
        if out is None:
            return encode_notification(_check(value))
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
                out = _tagged_into(_encode_into, _encode, value, _TAG_RESULT)
            else:
                out = _tagged(_encode, value, _TAG_RESULT)
        elif cls is _ErrorData:
            if not _ok(value, _TOP_PLAN[_I_ERROR]):
                value = _check(value)
            out = _tagged_into(_encode_into, _encode, value, _TAG_ERROR)
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
    out[0] = _TAG_RESULT
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


cdef bytes _signed_exponents(bytes out):
    """``out`` with each float exponent written as serde_json writes it, ``1e16`` ->
    ``1e+16`` (``df_sj_exponents``, in C: strings untouched)."""
    cdef const unsigned char *p = <const unsigned char *>PyBytes_AS_STRING(out)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(out)
    cdef Py_ssize_t count = _sj_exponents(p, n, NULL)
    if count == 0:
        return out
    result = PyBytes_FromStringAndSize(NULL, n + count)
    _sj_exponents(p, n, <unsigned char *>PyBytes_AS_STRING(result))
    return result
