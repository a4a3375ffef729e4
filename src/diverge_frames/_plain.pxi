# Included by _frames_c.pyx, before the decoders: the plainest bodies rmcp writes, an
# ErrorData without data and a ReadResourceResult of text or blob items alone (compact,
# in rmcp's member order, every string plain: most frames), recognized in C
# (_rmcp_plain.h) and their values built at once, with no glance and no msgspec read;
# any other body is left to the general path.
# Uses only the .pyx's head.

cdef extern from "_rmcp_plain.h":
    ctypedef struct df_plain_span:
        Py_ssize_t at
        Py_ssize_t end
        Py_ssize_t size
        int flags
    ctypedef struct df_plain_item:
        df_plain_span uri
        df_plain_span mime
        df_plain_span value
        int blob
    enum: DF_PLAIN_ITEMS, DF_PLAIN_ESCAPED, DF_PLAIN_HIGH
    void _plain_unescape "df_plain_unescape"(void *d, const unsigned char *p,
                                             const df_plain_span *s)
    bint _plain_error "df_rmcp_plain_error"(const unsigned char *p, Py_ssize_t n,
                                            int32_t *code, df_plain_span *message)
    bint _plain_result "df_rmcp_plain_result"(const unsigned char *p, Py_ssize_t n,
                                              df_plain_item *items, int *count)


cdef inline object _plain_str(const unsigned char *p, const df_plain_span *s):
    """The str of a plain string's span, or None when its UTF-8 is not valid (the
    general path words that)."""
    if s.flags == 0:
        text = PyUnicode_New(s.size, 127)
        memcpy(PyUnicode_DATA(text), p + s.at, s.size)
        return text
    if s.flags == DF_PLAIN_ESCAPED:
        text = PyUnicode_New(s.size, 127)
        _plain_unescape(PyUnicode_DATA(text), p, s)
        return text
    try:
        return PyUnicode_DecodeUTF8(<const char *>p + s.at, s.size, "strict")
    except UnicodeDecodeError:
        return None


cdef object _plain_error_data(const unsigned char *p, Py_ssize_t n):
    """The ErrorData of the body ``p[:n]`` as rmcp writes one without data, read at once,
    or None for the general path."""
    cdef int32_t code
    cdef df_plain_span message
    if not _plain_error(p, n, &code, &message):
        return None
    text = _plain_str(p, &message)
    return None if text is None else _ErrorData(code, text)


cdef object _plain_result_data(const unsigned char *p, Py_ssize_t n):
    """The ReadResourceResult of the body ``p[:n]`` as rmcp writes one of text or blob
    items alone, read at once, or None for the general path."""
    cdef df_plain_item items[DF_PLAIN_ITEMS]
    cdef df_plain_item *item
    cdef int count, k
    if not _plain_result(p, n, items, &count):
        return None
    contents = []
    for k in range(count):
        item = &items[k]
        uri = _plain_str(p, &item.uri)
        mime = _plain_str(p, &item.mime) if item.mime.at >= 0 else None
        value = _plain_str(p, &item.value)
        if uri is None or value is None or (mime is None and item.mime.at >= 0):
            return None
        if item.blob:
            contents.append(_Blob(uri=uri, mime_type=mime, blob=value))
        else:
            contents.append(_Text(uri=uri, mime_type=mime, text=value))
    return _Result(contents=contents)


def _plain_of(bytes body not None, bint result=False):
    """For the tests: the ErrorData (or, ``result``, the ReadResourceResult) of the body
    (its JSON) as rmcp writes its plainest form, read at once, or None for the general
    path."""
    cdef const unsigned char *p = <const unsigned char *>PyBytes_AS_STRING(body)
    return _plain_result_data(p, len(body)) if result else _plain_error_data(p, len(body))
