# Included by _frames_c.pyx, after _strings.pxi: encode. A value is checked along its
# plan (the C walk of _check_plans.pxi, else _checks.check), written by msgspec after
# the tag byte (a result's long strings by df_string_write, _strings.pxi), and each
# float exponent written as serde_json writes it as the output is made (``1e16`` ->
# ``1e+16``: with the copy out of the scratch buffer, or in msgspec's own bytes). An
# ErrorData is checked and written in C in one walk where it can be (_write_error.h).

cdef object _tagged_into(const df_method *encode_into, object encode, object value, char tag,
                         bint exponents):
    """``tag`` + the JSON of ``value``, exponents signed: msgspec writes after the tag
    byte in a reused ``bytearray``, then one allocation and copy make the ``bytes``
    (``encode`` alone allocates, grows and shrinks its own buffer), the exponents signed
    in that copy; ``exponents`` false (the check walked no float msgspec may write with
    one: ``df_exponents_possible``) skips the search for them. Nothing in msgspec's
    encode runs Python code or lets the GIL go, so one scratch buffer serves every
    thread; without a GIL (free-threaded CPython), or if the buffer is in use,
    ``_tagged`` does it."""
    global _scratch
    buf = _scratch
    if _GIL_DISABLED or buf is None:
        return _tagged(encode, value, tag, exponents)
    _scratch = None
    try:
        _call3(encode_into, value, buf, 1)
        PyByteArray_AS_STRING(buf)[0] = tag
        out = _signed_copy(PyByteArray_AS_STRING(buf), PyByteArray_GET_SIZE(buf), exponents)
    finally:
        _scratch = buf if PyByteArray_GET_SIZE(buf) <= _SCRATCH_KEEP else bytearray(1024)
    return out


cdef extern from "Python.h":
    bint PyUnicode_IS_COMPACT_ASCII(object o)
    PyObject *_new_bytes "PyBytes_FromStringAndSize"(const char *s, Py_ssize_t n) except NULL


cdef extern from "_write_error.h":
    Py_ssize_t _write_error_data "df_write_error_data"(
        PyObject *value, Py_ssize_t code_at, Py_ssize_t message_at, Py_ssize_t data_at,
        unsigned char *d, Py_ssize_t cap)


cdef enum:
    _ERROR_ROOM = 4096  # the ErrorData _error_written writes: a longer one is msgspec's

cdef Py_ssize_t _CODE_AT = _slot_offset(_ErrorData, "code")
cdef Py_ssize_t _MESSAGE_AT = _slot_offset(_ErrorData, "message")
cdef Py_ssize_t _DATA_AT = _slot_offset(_ErrorData, "data")


cdef object _error_written(object value, char tag):
    """``tag`` + the JSON of the ErrorData ``value`` written in C, checked as it is
    written (``df_write_error_data``: ``data``'s objects sorted as serde_json sorts them,
    with no list of them to allocate), or None when it declines: a float in ``data``, an
    output past ``_ERROR_ROOM`` bytes, or anything the general path must decide; and
    without a GIL (nothing keeps ``data`` still then)."""
    cdef unsigned char buf[_ERROR_ROOM]
    cdef Py_ssize_t n
    if _GIL_DISABLED:
        return None
    n = _write_error_data(<PyObject *>value, _CODE_AT, _MESSAGE_AT, _DATA_AT, buf + 1,
                          _ERROR_ROOM - 1)
    if n < 0:
        return None
    buf[0] = <unsigned char>tag
    return PyBytes_FromStringAndSize(<char *>buf, n + 1)


cdef enum:
    _MAX_SPLICED = 16       # the long strings of a result _spliced_encode writes; msgspec the rest
    _SHAPE_SMALL = 0        # a few short contents: the scratch buffer is the faster way
    _SHAPE_LARGE = 1        # left to msgspec's own buffer, grown once and shrunk in place
    _SHAPE_LONG_STRING = 2  # a long text or blob: _spliced_encode


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
        elif cls is _Text:
            s = _get(item, _TEXT_AT, "text")
        else:
            shape = _SHAPE_LARGE
            continue
        if type(s) is not str:
            shape = _SHAPE_LARGE
            continue
        if PyUnicode_GET_LENGTH(s) >= _LONG_ENCODE:
            return _SHAPE_LONG_STRING
        size += PyUnicode_GET_LENGTH(s)
    return shape if few and size < 4096 else _SHAPE_LARGE


cdef inline int _str_utf8(object s, const char **data, Py_ssize_t *size) except -1:
    """The UTF-8 of the str ``s`` into ``data`` and ``size``: a compact ASCII str's own
    bytes, any other's UTF-8 as msgspec reads it, kept in the str (``df_str_utf8``:
    ``PyUnicode_AsUTF8AndSize``'s, made by the vector kernel where one runs;
    UnicodeEncodeError for a lone surrogate)."""
    if PyUnicode_IS_COMPACT_ASCII(s):
        size[0] = PyUnicode_GET_LENGTH(s)
        data[0] = <const char *>PyUnicode_DATA(s)
    else:
        data[0] = _str_utf8_kept(s, size)
    return 0


cdef bytes _signed_copy(const char *p, Py_ssize_t n, bint exponents):
    """The ``bytes`` of ``p[:n]`` (msgspec's JSON after a tag byte), each float exponent
    written as serde_json writes it as it is copied (``df_sj_exponents``; none looked for
    when ``exponents`` is false)."""
    cdef Py_ssize_t count
    if not exponents or not _exponent_candidate(<const unsigned char *>p, n):
        return PyBytes_FromStringAndSize(p, n)
    count = _sj_exponents(<const unsigned char *>p, n, NULL)
    result = PyBytes_FromStringAndSize(NULL, n + count)
    _sj_exponents(<const unsigned char *>p, n, <unsigned char *>PyBytes_AS_STRING(result))
    return result


cdef object _tagged(object encode, object value, char tag, bint exponents):
    """``tag`` + ``encode(value)``, exponents signed: the encoder's fresh bytes are grown
    in place by one byte and one a float exponent, the JSON moved forward to make the
    room and signed back in place (``df_sj_exponents``), rather than copied into a
    second buffer (``exponents``: as ``_tagged_into``'s)."""
    cdef PyObject *out = PyObject_CallOneArg(encode, value)
    cdef Py_ssize_t n, count = 0
    cdef char *buf
    if Py_REFCNT(out) != 1 or not PyBytes_CheckExact(<object>out):
        result = <object>out
        Py_DECREF(out)
        result = bytes((<unsigned char>tag,)) + result
        return _signed_copy(PyBytes_AS_STRING(result), PyBytes_GET_SIZE(result), exponents)
    n = PyBytes_GET_SIZE(<object>out)
    buf = PyBytes_AS_STRING(<object>out)
    if exponents and _exponent_candidate(<const unsigned char *>buf, n):
        count = _sj_exponents(<const unsigned char *>buf, n, NULL)
    _PyBytes_Resize(&out, n + 1 + count)
    buf = PyBytes_AS_STRING(<object>out)
    memmove(buf + 1 + count, buf, n)
    if count:
        _sj_exponents(<const unsigned char *>buf + 1 + count, n, <unsigned char *>buf + 1)
    buf[0] = tag
    result = <object>out
    Py_DECREF(out)
    return result


cdef inline bint _plain_params(object params):
    """Whether a custom notification's params are written in the encoder's own order
    (rmcp writes ``_meta`` first, then the others sorted)."""
    return type(params) is dict and "_meta" not in params


@cython.binding(False)
def encode_notification(value):
    cdef bytes out
    cdef df_floats floats
    cdef int i = _top(value)
    cdef const df_method *encode_into = _encode_into
    if i < 0:
        raise TypeError(
            "a notification channel carries a ServerNotification or ErrorData,"
            f" not {type(value).__name__}"
        )
    if _BARE_WRITTEN[i] != NULL and _all_none(value, _TOP_PLAN[i]):
        return <object>_BARE_WRITTEN[i]  # a list-changed notification without params
    cdef bint plain_params = False
    cdef bint exponents = True
    if i == _I_ERROR:  # the exact class
        out = _error_written(value, _TAG_ERROR)
        if out is not None:
            return out
    encode = _encode
    if not _ok_floats(value, _TOP_PLAN[i], &floats):
        value = _check(value)  # its canonical copy, or its TypeError/ValueError
        floats.n = 0
    else:
        exponents = _exponents_possible()
        # the walk saw a custom notification's params: a dict, and no "_meta" in it
        plain_params = _custom_params() == _PARAMS_NO_META
        if _keys_ordered():  # the same bytes without the dicts' sort
            encode_into = _encode_into_unsorted
            encode = _encode_unsorted
    try:
        if i == _I_CUSTOM:
            if plain_params or _plain_params(_get(value, _PARAMS_AT, "params")):
                # rmcp's order, the encoder's
                out = _tagged_into(encode_into, encode, value, _TAG_NOTIFICATION, exponents)
            else:
                out = _tagged(encode_custom, value, _TAG_NOTIFICATION, exponents)
        elif i == _I_ERROR:
            out = _tagged_into(encode_into, encode, value, _TAG_ERROR, exponents)
        else:
            out = _tagged_into(encode_into, encode, value, _TAG_NOTIFICATION, exponents)
    except UnicodeEncodeError:
        raise _unicode_error(value) from None  # a str msgspec cannot write: its path
    if floats.n:
        out = _floats_written(out, &floats)
        if out is None:
            return encode_notification(_check(value))
    return out


@cython.binding(False)
def encode_read_resource(value):
    cls = type(value)
    cdef bytes out
    cdef bint exponents = True
    try:
        if cls is _Result:
            if not _ok(value, _RESULT_PLAN):
                value = _check(value)
            else:
                exponents = _exponents_possible()
            shape = _result_shape(value)
            if shape == _SHAPE_LONG_STRING:
                out = _spliced_encode(value)
                if out is not None:
                    return out
            if shape == _SHAPE_SMALL:
                out = _tagged_into(_encode_into, _encode, value, _TAG_RESULT, exponents)
            else:
                out = _tagged(_encode, value, _TAG_RESULT, exponents)
        elif cls is _ErrorData:
            out = _error_written(value, _TAG_ERROR)
            if out is not None:
                return out
            if not _ok(value, _TOP_PLAN[_I_ERROR]):
                out = _tagged_into(_encode_into, _encode, _check(value), _TAG_ERROR, True)
            else:
                exponents = _exponents_possible()
                if _keys_ordered():  # the same bytes without the dicts' sort
                    out = _tagged_into(_encode_into_unsorted, _encode_unsorted, value,
                                       _TAG_ERROR, exponents)
                else:
                    out = _tagged_into(_encode_into, _encode, value, _TAG_ERROR, exponents)
        else:
            raise TypeError(
                "a read-resource channel carries a ReadResourceResult or ErrorData,"
                f" not {cls.__name__}"
            )
    except UnicodeEncodeError:
        raise _unicode_error(value) from None  # a str msgspec cannot write: its path
    return out


cdef object _spliced_encode(object value):
    """The long-string fast path on encode: ``b"\\x00"`` + the JSON of a
    ReadResourceResult holding a long text or blob, or None for the general path.

    msgspec writes a long string a byte at a time; here the result is encoded with each
    long string replaced by a one-byte mark (``_marked_skeleton``), then each string's
    UTF-8 is written in place of its mark by ``df_string_write`` (64 bytes a step,
    escaped as serde_json, and msgspec, escape a str) into an output sized for the
    strings and an eighth more, grown when their escapes need more (``_grow``) and shrunk
    in place once written. The bytes are those msgspec would write, for a value that
    does not change while it is encoded (a ``tzinfo`` in a ``_meta`` that mutates a
    later string would be seen by msgspec, not here: not supported); a str holding a
    lone surrogate raises UnicodeEncodeError, as msgspec's encode does.
    """
    contents = _get(value, _CONTENTS_AT, "contents")
    cdef list strings = []
    cdef Py_ssize_t indexes[_MAX_SPLICED]
    cdef Py_ssize_t count = 0
    cdef Py_ssize_t i, j, k, n, cap, at, start, m, r
    cdef const char *sk
    cdef const char *src
    cdef const char *q
    cdef PyObject *result
    cdef object s
    if type(contents) is not list:
        return None  # msgspec encodes whatever is there; the general path does
    cap = 1
    for i in range(len(contents)):
        item = contents[i]
        cls = type(item)
        if cls is _Blob:
            s = _get(item, _BLOB_AT, "blob")
        elif cls is _Text:
            s = _get(item, _TEXT_AT, "text")
        else:
            continue
        if (type(s) is not str or PyUnicode_GET_LENGTH(s) < _LONG_ENCODE
                or count == _MAX_SPLICED):
            continue  # msgspec's to write
        _str_utf8(s, &src, &m)
        cap += m + m // 8 + 2  # its quotes in place of its mark
        indexes[count] = i
        count += 1
        strings.append(s)
    if count == 0:
        return None
    skeleton = _marked_skeleton(value, contents, indexes, count, strings)
    sk = PyBytes_AS_STRING(skeleton)
    n = PyBytes_GET_SIZE(skeleton)
    if _exponent_candidate(<const unsigned char *>sk, n):
        return None
    cap += n
    result = _new_bytes(NULL, cap)
    PyBytes_AS_STRING(<object>result)[0] = _TAG_RESULT
    at = 1
    start = 0
    for i in range(count):
        s = strings[i]
        q = <const char *>memchr(sk + start, 0, n - start)
        if q == NULL:
            Py_DECREF(result)
            return None
        k = q - sk
        _grow(&result, &cap, at + k - start + 1)
        memcpy(PyBytes_AS_STRING(<object>result) + at, sk + start, k - start)
        at += k - start
        PyBytes_AS_STRING(<object>result)[at] = 34
        at += 1
        _str_utf8(s, &src, &m)  # no error now: each was read above
        j = 0
        while True:
            at += _string_write(<unsigned char *>PyBytes_AS_STRING(<object>result) + at,
                                cap - at, <const unsigned char *>src, m, &j)
            if j == m:
                break
            r = m - j  # the room that always goes on, or more
            _grow(&result, &cap, at + (6 * r if 6 * r < 2 * r + 768 else 2 * r + 768))
        _grow(&result, &cap, at + 1)
        PyBytes_AS_STRING(<object>result)[at] = 34
        at += 1
        start = k + 1
    if memchr(sk + start, 0, n - start) != NULL:
        Py_DECREF(result)
        return None  # a NUL the marks do not explain: let msgspec's output stand
    _grow(&result, &cap, at + n - start)
    memcpy(PyBytes_AS_STRING(<object>result) + at, sk + start, n - start)
    at += n - start
    _PyBytes_Resize(&result, at)
    spliced = <object>result
    Py_DECREF(result)
    return spliced


cdef int _grow(PyObject **result, Py_ssize_t *cap, Py_ssize_t need) except -1:
    """The fresh ``bytes`` at ``*result`` (its ``*cap`` bytes) grown in place to at
    least ``need`` bytes, twice as many when that is more (a failure frees it)."""
    if need <= cap[0]:
        return 0
    if need < 2 * cap[0]:
        need = 2 * cap[0]
    _PyBytes_Resize(result, need)
    cap[0] = need
    return 0


cdef bytes _marked_skeleton(object value, list contents, const Py_ssize_t *indexes,
                            Py_ssize_t count, list strings):
    """msgspec's JSON of the result ``value`` with the long string of each item of
    ``contents`` at ``indexes[:count]`` (in order; ``strings``, the strings themselves)
    written as ``_STRING_MARK``. With a GIL the mark is put in each item's slot and the
    string put back once msgspec has written (nothing in msgspec's encode runs Python
    code or lets the GIL go, so nothing else sees it; in reverse order, for an item
    listed twice); without one, in copies of the items and of the result."""
    cdef Py_ssize_t j
    cdef object string
    if _GIL_DISABLED:
        marked = list(contents)
        for j in range(count):
            marked[indexes[j]] = copy = marked[indexes[j]].__copy__()
            if type(copy) is _Blob:
                copy.blob = _STRING_MARK
            else:
                copy.text = _STRING_MARK
        shell = value.__copy__()
        shell.contents = marked
        return _encode(shell)
    for j in range(count):
        item = contents[indexes[j]]
        _member_swap(item, _BLOB_AT if type(item) is _Blob else _TEXT_AT,
                     <PyObject *>_STRING_MARK)
    try:
        return _encode(value)
    finally:
        for j in range(count - 1, -1, -1):
            item = contents[indexes[j]]
            string = strings[j]
            _member_swap(item, _BLOB_AT if type(item) is _Blob else _TEXT_AT,
                         <PyObject *>string)


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


def _long_encode(value):
    """For the tests: the frame the long-string path of encode makes of the
    ReadResourceResult ``value`` (tag byte and JSON), or None when it steps aside for
    the general path (no long text or blob, a float exponent, a stray NUL)."""
    if type(value) is not _Result:
        raise TypeError(f"a ReadResourceResult, not {type(value).__name__}")
    return _spliced_encode(value)
