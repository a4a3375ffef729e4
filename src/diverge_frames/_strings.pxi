# Long strings of a read-resource result at memory speed (included by _frames_c.pyx).
#
# msgspec reads a long string a byte at a time. Here the long ``text`` and ``blob``
# strings of a result are built into their str in C (``_strings.h``: 64 bytes a step,
# copied once with their escapes replaced as they go; the UTF-8 of one with a byte >= 0x80
# then decoded, ``_utf8``), and cut out of the JSON before msgspec and
# ``_precheck`` read the rest. Whatever is unusual returns None, and the general path
# decides, errors included. On encode, df_string_write writes a long str's content
# (``_encode.pxi``), from the UTF-8 CPython makes of it and keeps in the str.

cdef extern from "_strings.h":
    int _STR_ESCAPED "DF_STR_ESCAPED"
    int _STR_HIGH "DF_STR_HIGH"
    ctypedef struct _Copy "df_copy":
        Py_ssize_t i
        Py_ssize_t o
        unsigned long long high
        int flags
    void _strings_init "df_strings_init"() noexcept nogil
    int _string_path_now "df_string_path"
    void _copy_start "df_copy_start"(_Copy *at, Py_ssize_t start) noexcept nogil
    Py_ssize_t _string_copy "df_string_copy"(unsigned char *d, Py_ssize_t cap,
                                             const unsigned char *p, Py_ssize_t n,
                                             _Copy *at) noexcept nogil
    Py_ssize_t _stop_index "df_stop_index"(const unsigned char *p, Py_ssize_t n,
                                           Py_ssize_t j) noexcept nogil
    Py_ssize_t _find_string_key "df_find_string_key"(const unsigned char *p, Py_ssize_t start,
                                                     Py_ssize_t end, const char *names,
                                                     int count, int *kind) noexcept nogil
    Py_ssize_t _count_empty "df_count_empty"(const unsigned char *p, Py_ssize_t n) noexcept nogil
    Py_ssize_t _string_write "df_string_write"(unsigned char *d, Py_ssize_t cap,
                                               const unsigned char *s, Py_ssize_t n,
                                               Py_ssize_t *at) noexcept nogil
    bint _transcodes "df_transcodes"() noexcept nogil
    Py_UCS4 _utf8_shape "df_utf8_shape"(const unsigned char *s, Py_ssize_t n,
                                        Py_ssize_t *chars) noexcept nogil
    int _utf8_decode "df_utf8_decode"(void *d, int kind, Py_ssize_t chars,
                                      const unsigned char *s, Py_ssize_t n) noexcept nogil

_strings_init()
cdef enum:
    # A ``text`` or ``blob`` string is cut out of the JSON when its content is at least
    # this long (msgspec reads a shorter one as fast); a body shorter than this is not
    # looked at.
    _SPLICE_STRING = 256
    # A string is copied first into a buffer on the stack of this many bytes, and only
    # one that goes on past it into a str of its own.
    _STACK_ROOM = 1024
    # At most this many strings are cut out of one body; the rest are msgspec's.
    _MAX_CUTS = 64
    # The keys df_find_string_key finds in a result ("textblob"), by index.
    _TEXT = 0
    _BLOB = 1
#: How far past the start, or the previous string, to look for the next key.
cdef Py_ssize_t _SPLICE_WINDOW = 4096
#: How many short strings to look at before the first long one, before giving up (a
#: result of many small items is msgspec's).
cdef int _SPLICE_SHORT = 1
#: The room a long string's str is given at first: the rest of the body when shorter
#: (a string that goes on past it then gets all the rest of the body).
cdef Py_ssize_t _FIRST_ROOM = 65536
#: The longest rest of a body a long string's str is given at once (then cut to size),
#: rather than _FIRST_ROOM: growing the str past _FIRST_ROOM may move, and copy, what
#: it holds.
cdef Py_ssize_t _WHOLE_ROOM = 1 << 20


cdef object _utf8(const char *s, Py_ssize_t m):
    """The str of the UTF-8 ``s[:m]``, or None when it is not UTF-8 (Rust's str and
    CPython reject the same bytes: overlong forms, surrogates, above U+10FFFF).

    On the AVX-512 and AVX2 paths the str is sized by one counting pass
    (``df_utf8_shape``: its characters and kind) and filled by ``df_utf8_decode``, 16 or
    8 characters a step; the bytes it refuses, and every other path, go to CPython's
    strict decoder, which decides."""
    cdef Py_ssize_t chars
    cdef Py_UCS4 maxchar
    if _transcodes():
        maxchar = _utf8_shape(<const unsigned char *>s, m, &chars)
        result = PyUnicode_New(chars, maxchar)
        if _utf8_decode(PyUnicode_DATA(result), PyUnicode_KIND(result), chars,
                        <const unsigned char *>s, m) == 0:
            return result
    try:
        return PyUnicode_DecodeUTF8(s, m, "strict")
    except UnicodeDecodeError:
        return None


cdef object _long_string(const unsigned char *p, Py_ssize_t n, Py_ssize_t j,
                         Py_ssize_t *end):
    """The str of the JSON string whose content starts at ``p[j]``, as msgspec and
    serde_json read it, with ``end[0]`` the index of its closing quote; None when its
    content is shorter than ``_SPLICE_STRING`` (``end[0]`` its closing quote) or when
    serde_json rejects it (``end[0]`` -1: not closed, a control byte, an escape it does
    not know, a lone surrogate, invalid UTF-8).

    The content is read once (``df_string_copy``), its escapes replaced as it goes:
    into a buffer of ``_STACK_ROOM`` bytes on the stack, then (a string that goes on
    past it) into a str given all the rest of the body when that is at most
    ``_WHOLE_ROOM`` bytes, else ``_FIRST_ROOM`` bytes and then all the rest if it goes
    on past those; cut to size at its end. With any byte >= 0x80, ``_utf8`` then reads
    the copy (our transcoder where one runs, else CPython's UTF-8 decoder); or the
    content itself, when the buffer held one and no escape, and no escape comes before
    the end."""
    cdef unsigned char first[_STACK_ROOM]
    cdef _Copy at
    cdef Py_ssize_t room, e
    cdef PyObject *out
    _copy_start(&at, j)
    e = _string_copy(first, _STACK_ROOM, p, n, &at)
    end[0] = e
    if e >= 0:  # it ended in the buffer
        if e - j < _SPLICE_STRING:
            return None
        if at.flags & _STR_HIGH:
            result = _utf8(<const char *>first, at.o)
            if result is None:
                end[0] = -1
            return result
        result = PyUnicode_New(at.o, 127)
        memcpy(PyUnicode_DATA(result), first, at.o)
        return result
    if e == -1:
        return None
    if at.high and not at.flags & _STR_ESCAPED:
        # Non-ASCII and no escape so far: _utf8 reads the content where it is, once its
        # end is found, when no escape comes first (no copy to make).
        e = _stop_index(p, n, at.i)
        if e == n or p[e] < 0x20:
            end[0] = -1  # not closed, or a control byte: serde_json rejects it
            return None
        if p[e] == 0x22:
            end[0] = e
            result = _utf8(<const char *>p + j, e - j)
            if result is None:
                end[0] = -1
            return result
    room = n - j if n - j <= _WHOLE_ROOM else _FIRST_ROOM  # more than _STACK_ROOM: -2 says so
    out = _new_str(room, 127)
    memcpy(_str_data(out), first, at.o)
    e = _string_copy(<unsigned char *>_str_data(out), room, p, n, &at)
    if e == -2:
        room = n - j
        try:
            PyUnicode_Resize(&out, room)
        except BaseException:
            Py_DECREF(out)  # out is still the original str when the resize fails
            raise
        e = _string_copy(<unsigned char *>_str_data(out), room, p, n, &at)
    end[0] = e
    if e < 0 or at.flags & _STR_HIGH:
        result = None if e < 0 else _utf8(<const char *>_str_data(out), at.o)
        if result is None:
            end[0] = -1
        Py_DECREF(out)
        return result
    if at.o != room:
        try:
            PyUnicode_Resize(&out, at.o)
        except BaseException:
            Py_DECREF(out)
            raise
    result = <object>out
    Py_DECREF(out)
    return result


cdef object _spliced_result(const unsigned char *p, Py_ssize_t n):
    """The read-resource result of the body ``p[:n]`` with its long strings built here,
    or None for the general path. Runs before ``_precheck``, which then reads only
    what is left.

    Each ``"text":"`` or ``"blob":"`` whose string has ``_SPLICE_STRING`` bytes or more
    has that string built into its str (``_long_string``) and cut out of the JSON,
    leaving ``""``. msgspec decodes what is left; each item whose ``text`` or ``blob``
    is ``""`` takes the next cut string, which must have been that key's: in what is
    left every ``""`` is a cut one (``df_count_empty``), so the empty strings of the
    items, in order, are the cuts in order, or one of them landed elsewhere (a
    ``_meta``, an unknown member) and the general path decides. Anything unusual (a
    string serde_json rejects, a body msgspec rejects or that ``_precheck`` sends to
    the exact path, an item that is neither text nor blob) returns None, and the
    general path decides, errors included.

    A cut string is a whole JSON string value: its opening quote follows a colon, and
    in a key ``"text"`` or ``"blob"`` the last quote is no escaped one; so removing its
    content changes no other token, and ``_precheck`` (which looks at values only
    for their UTF-8, checked here) says of what is left what it says of the body.
    """
    cdef Py_ssize_t cut_start[_MAX_CUTS]  # where each cut string's content is, in p
    cdef Py_ssize_t cut_end[_MAX_CUTS]
    cdef int cut_kind[_MAX_CUTS]  # its key: _TEXT or _BLOB
    cdef list strs = []
    cdef Py_ssize_t i = 0, v, e = 0, at, size = n
    cdef int kind = 0, shorts = 0, top_keys = 0, index = 0, count = 0, j
    cdef char *out
    while count < _MAX_CUTS:
        v = _find_string_key(p, i, min(n, i + _SPLICE_WINDOW), "textblob", 2, &kind)
        if v < 0:
            break
        s = _long_string(p, n, v, &e)
        if e < 0:
            return None  # the general path words the error
        if s is not None:
            cut_start[count] = v
            cut_end[count] = e
            cut_kind[count] = kind
            count += 1
            size -= e - v
            strs.append(s)
        elif count == 0:
            shorts += 1
            if shorts == _SPLICE_SHORT:
                return None
        i = e + 1
    if count == 0:
        return None
    rest = PyBytes_FromStringAndSize(NULL, size)
    out = PyBytes_AS_STRING(rest)
    i = 0
    at = 0
    for j in range(count):
        v = cut_start[j]
        memcpy(out + at, p + i, v - i)
        at += v - i
        i = cut_end[j]
    memcpy(out + at, p + i, n - i)
    if _count_empty(<const unsigned char *>out, size) != count:
        return None  # an empty string of the body's own: the general path
    if _precheck(<const unsigned char *>out, size, &top_keys):
        return None
    if not _has_key(<const unsigned char *>out, size, "blob"):
        # every item must be text: decoded straight to the public types
        try:
            value = _text_result_decoder(rest)
        except Exception:
            return None
        contents = value.contents
        for item in contents:
            if PyUnicode_GET_LENGTH(item.text) == 0:
                if index == count or cut_kind[index] != _TEXT:
                    return None
                item.text = strs[index]
                index += 1
        if index != count:
            return None
        return _as_public(value)
    try:
        wire = _result_decoder(rest)
    except Exception:
        return None
    contents = []
    for item in wire.contents:
        text = item.text
        blob = item.blob
        if type(text) is str and PyUnicode_GET_LENGTH(text) == 0:
            if index == count or cut_kind[index] != _TEXT:
                return None
            text = strs[index]
            index += 1
        elif type(blob) is str and PyUnicode_GET_LENGTH(blob) == 0:
            if index == count or cut_kind[index] != _BLOB:
                return None
            blob = strs[index]
            index += 1
        if type(text) is str:
            contents.append(_Text(uri=item.uri, mime_type=item.mime_type, text=text,
                                  meta=item.meta))
        elif type(blob) is str:
            contents.append(_Blob(uri=item.uri, mime_type=item.mime_type, blob=blob,
                                  meta=item.meta))
        else:
            return None  # neither: the general path words the error
    if index != count:
        return None
    return _public_result(wire, contents)


cdef object _spliced_log(const unsigned char *p, Py_ssize_t n):
    """The logging-message notification of the body ``p[:n]`` when its ``data`` is a long
    string, built here and cut out of the JSON as ``_spliced_result`` does; or None for
    the general path. The cut must have been ``params.data``: what is left holds no
    other ``""``, and there ``params.data`` is ``""``."""
    cdef Py_ssize_t v = _method_start(p, n), e, size
    cdef int kind = 0, top_keys = 0, tries
    cdef char *out
    if v < 0 or n - v < 23 or memcmp(p + v, b'notifications/message"', 22) != 0:
        return None
    e = v + 21  # the method's closing quote
    for tries in range(3):  # a short "data" first (in a _meta, say): the next one
        v = _find_string_key(p, e + 1, min(n, e + 1 + _SPLICE_WINDOW), "data", 1, &kind)
        if v < 0:
            return None
        s = _long_string(p, n, v, &e)
        if e < 0:
            return None  # the general path words the error
        if s is not None:
            break
    else:
        return None
    size = n - (e - v)
    rest = PyBytes_FromStringAndSize(NULL, size)
    out = PyBytes_AS_STRING(rest)
    memcpy(out, p, v)
    memcpy(out + v, p + e, n - e)
    if (_count_empty(<const unsigned char *>out, size) != 1
            or _precheck(<const unsigned char *>out, size, &top_keys, _EXPECT_NOTIFICATION)):
        return None
    try:
        value = _notification_decoder(rest, _SOME_METHOD)
    except Exception:
        return None
    if type(value) is not _Logging:
        return None
    params = value.params
    data = params.data
    if type(data) is not str or PyUnicode_GET_LENGTH(data) != 0:
        return None
    params.data = s
    return value


cdef int _BEST_PATH = _string_path_now
#: For the tests: the shortest string content the long-string path cuts out.
_LONG_STRING = _SPLICE_STRING


def _string_path(path=None):
    """For the tests: the path the string loops take (3 AVX-512, 2 AVX2, 1 SSE2, 0
    SWAR), after setting it to ``path`` when given (no better than the CPU's best,
    which ``_string_path(99)`` sets back). Not thread-safe: a test's tool only."""
    global _string_path_now
    if path is not None:
        _string_path_now = max(0, min(int(path), _BEST_PATH))
    return _string_path_now


def _long_strings(body, notification=False):
    """For the tests: the ReadResourceResult (the logging-message notification, when
    ``notification``) the long-string path makes of ``body`` (a ``bytes`` body, no tag
    byte), or None when it steps aside for the general path."""
    if not PyBytes_CheckExact(body):
        raise TypeError(f"a bytes body, not {type(body).__name__}")
    p = <const unsigned char *>PyBytes_AS_STRING(body)
    if notification:
        return _spliced_log(p, PyBytes_GET_SIZE(body))
    return _spliced_result(p, PyBytes_GET_SIZE(body))
