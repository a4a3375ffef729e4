/* Shortcuts through CPython's C API for the compiled hot path (_frames_c.pyx).
 *
 * Each one skips a generic layer that costs more than the work on a small frame, and
 * each is taken only after _frames_c.pyx has checked, once at import, that what it
 * skips would have done nothing more:
 *
 * - df_method / df_call: a builtin method of one of msgspec's Decoders or Encoders
 *   called through its METH_FASTCALL C function (no vectorcall dispatch, no argument
 *   tuple); any other callable through PyObject_Vectorcall, as before.
 * - df_set_type: an object's class changed to one of the same layout, as an
 *   assignment to __class__ changes it (no layout check: done at import).
 * - df_set_doc: a builtin function's docstring and text signature (__doc__ and
 *   __text_signature__ read them from its method definition; neither can be assigned).
 * - df_str_utf8: a str's UTF-8 as PyUnicode_AsUTF8AndSize gives it and keeps it in the
 *   str, made by the vector kernel where one runs (df_ucs_encode) rather than by
 *   CPython's encoder, a character at a time: the str is left as CPython would leave it.
 */
#ifndef DF_CAPI_H
#define DF_CAPI_H

#include <Python.h>

#include "_common.h"
#include "_strings.h"

/* The C signature of a METH_FASTCALL method. */
typedef PyObject *(*df_fastcall)(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

typedef struct {
    PyObject *callable; /* owned; the method itself */
    PyObject *self;     /* borrowed from callable: its __self__ */
    df_fastcall fast;   /* its C function when it is a plain METH_FASTCALL builtin */
} df_method;

/* Fill m for callable (a new reference is kept for the life of the module). */
DF_INLINE int df_method_init(df_method *m, PyObject *callable) {
    Py_INCREF(callable);
    m->callable = callable;
    m->self = NULL;
    m->fast = NULL;
    if (PyCFunction_CheckExact(callable) && PyCFunction_GET_FLAGS(callable) == METH_FASTCALL
            && PyCFunction_GET_SELF(callable) != NULL) {
        m->self = PyCFunction_GET_SELF(callable);
        m->fast = (df_fastcall)(void (*)(void))PyCFunction_GET_FUNCTION(callable);
    }
    return 0;
}

/* Whether m is called through its C function (for the tests). */
DF_INLINE int df_method_fast(const df_method *m) { return m->fast != NULL; }

/* m(*args): a new reference, or NULL with an exception set. */
DF_INLINE PyObject *df_call(const df_method *m, PyObject *const *args, Py_ssize_t nargs) {
    if (m->fast != NULL) return m->fast(m->self, args, nargs);
    return PyObject_Vectorcall(m->callable, args, (size_t)nargs, NULL);
}

DF_INLINE PyObject *df_call1(const df_method *m, PyObject *a) {
    return df_call(m, &a, 1);
}

DF_INLINE PyObject *df_call3(const df_method *m, PyObject *a, PyObject *b, PyObject *c) {
    PyObject *args[3] = {a, b, c};
    return df_call(m, args, 3);
}

/* obj's class made type, a heap type of the same layout as obj's own heap type. */
DF_INLINE void df_set_type(PyObject *obj, PyObject *type) {
    PyTypeObject *old = Py_TYPE(obj);
    Py_INCREF(type);
    Py_SET_TYPE(obj, (PyTypeObject *)type);
    Py_DECREF(old);
}

/* The object in obj's member slot at offset (a struct field), replaced by value: no
   reference count changes, so the caller puts the old one back before anything but
   its own C can look (while it holds the GIL and runs no Python code). */
DF_INLINE PyObject *df_member_swap(PyObject *obj, Py_ssize_t offset, PyObject *value) {
    PyObject **slot = (PyObject **)((char *)obj + offset);
    PyObject *old = *slot;
    *slot = value;
    return old;
}

/* The builtin function's method definition made to read doc, a C string that must
   outlive it: "name(signature)\n--\n\n" then the docstring. */
DF_INLINE int df_set_doc(PyObject *function, const char *doc) {
    if (!PyCFunction_Check(function)) {
        PyErr_SetString(PyExc_TypeError, "not a builtin function");
        return -1;
    }
    ((PyCFunctionObject *)function)->m_ml->ml_doc = doc;
    return 0;
}

/* Where df_str_utf8 keeps a str's UTF-8 itself: CPython 3.10-3.14 with the GIL, whose
   PyCompactUnicodeObject holds it in utf8 and utf8_length, and whose unicode_dealloc
   frees it with the allocator named here (PyObject_Free to 3.12, PyMem_Free from 3.13:
   a mismatch is a fatal error under PYTHONMALLOC=debug, which the tests run). Elsewhere
   (free-threaded builds, which set the field under a lock, and any later CPython)
   CPython makes it. */
#if !DF_GIL_DISABLED && !defined(PYPY_VERSION) && PY_VERSION_HEX >= 0x030A0000 &&        \
    PY_VERSION_HEX < 0x030F0000
#define DF_KEEPS_UTF8 1
#if PY_VERSION_HEX >= 0x030D0000
#define DF_UTF8_MALLOC PyMem_Malloc
#define DF_UTF8_REALLOC PyMem_Realloc
#define DF_UTF8_FREE PyMem_Free
#else
#define DF_UTF8_MALLOC PyObject_Malloc
#define DF_UTF8_REALLOC PyObject_Realloc
#define DF_UTF8_FREE PyObject_Free
#endif
#else
#define DF_KEEPS_UTF8 0
#endif

/* The UTF-8 of the str s and its length in *size, kept in s (so the next call, and
   msgspec's and orjson's encode of s, read it at once), as PyUnicode_AsUTF8AndSize
   gives it; NULL with UnicodeEncodeError set for a lone surrogate, MemoryError when
   out of memory. A compact non-ASCII str that keeps none yet gets it from
   df_ucs_encode, 16 code points a step, in a block of its longest UTF-8 cut to size,
   where that kernel runs (df_transcodes) and DF_KEEPS_UTF8 holds; any other str, and
   one with a surrogate, from CPython. */
DF_INLINE const char *df_str_utf8(PyObject *s, Py_ssize_t *size) {
#if DF_KEEPS_UTF8
    PyCompactUnicodeObject *c = (PyCompactUnicodeObject *)s;
    unsigned char *utf8, *cut;
    df_ssize n = PyUnicode_GET_LENGTH(s), m;
    int kind;
    if (df_transcodes() && PyUnicode_IS_COMPACT(s) && !PyUnicode_IS_ASCII(s) &&
        c->utf8 == NULL && n <= (PY_SSIZE_T_MAX - 64) / 4) {
        kind = (int)PyUnicode_KIND(s);
        utf8 = (unsigned char *)DF_UTF8_MALLOC((size_t)df_ucs_room(kind, n));
        if (utf8 == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        m = df_ucs_encode(utf8, PyUnicode_DATA(s), kind, n);
        if (m >= 0) {
            cut = (unsigned char *)DF_UTF8_REALLOC(utf8, (size_t)m + 1);
            if (cut != NULL) utf8 = cut; /* else the longer block is kept */
            utf8[m] = '\0';
            c->utf8 = (char *)utf8;
            c->utf8_length = m;
            *size = m;
            return (const char *)utf8;
        }
        DF_UTF8_FREE(utf8); /* a surrogate: CPython's error below */
    }
#endif
    return PyUnicode_AsUTF8AndSize(s, size);
}

#endif /* DF_CAPI_H */
