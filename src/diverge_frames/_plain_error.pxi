# Included by _frames_c.pyx, before the decoders: the ErrorData rmcp writes without
# ``data`` (``{"code":<i32>,"message":"<text>"}``, compact, the text printable ASCII with
# only simple escapes: most error frames) read at once in C (_rmcp_error.h), with no
# glance and no msgspec read; any other body is left to the general path.
# Uses only the .pyx's head.

cdef extern from "_rmcp_error.h":
    bint _plain_error "df_rmcp_plain_error"(const unsigned char *p, Py_ssize_t n, int32_t *code,
                                            Py_ssize_t *at, Py_ssize_t *size, int *escaped)
    void _plain_message "df_rmcp_plain_message"(void *d, const unsigned char *p,
                                                Py_ssize_t at, Py_ssize_t end)


cdef object _plain_error_data(const unsigned char *p, Py_ssize_t n):
    """The ErrorData of the body ``p[:n]`` as rmcp writes one without data, read at once
    (``_rmcp_error.h``), or None for the general path."""
    cdef int32_t code
    cdef int escaped
    cdef Py_ssize_t at, size
    if not _plain_error(p, n, &code, &at, &size, &escaped):
        return None
    message = PyUnicode_New(size, 127)
    if escaped:
        _plain_message(PyUnicode_DATA(message), p, at, n - 2)
    else:
        memcpy(PyUnicode_DATA(message), p + at, size)
    return _ErrorData(code, message)


def _plain_error_of(bytes body not None):
    """For the tests: the ErrorData of the body (its JSON) as rmcp writes one without
    ``data``, read at once (``_rmcp_error.h``), or None for the general path."""
    return _plain_error_data(<const unsigned char *>PyBytes_AS_STRING(body), len(body))
