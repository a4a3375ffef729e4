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
 */
#ifndef DF_CAPI_H
#define DF_CAPI_H

#include <Python.h>

#include "_common.h"

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

#endif /* DF_CAPI_H */
