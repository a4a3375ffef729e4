/* The compiled channel twin's one piece of C (_channel_c.pyx): building an event.
 *
 * An event (diverge_frames.channel.Notification, Result, Error) is a frozen dataclass
 * with slots and one field. Its generated __init__ sets that field through
 * object.__setattr__, past the frozen __setattr__; df_event does the same two steps
 * without the Python frame: the bare instance from the type's tp_alloc (what
 * object.__new__ does for a class with no __new__ of its own), then the field set
 * through its slot descriptor (PyObject_GenericSetAttr, as object.__setattr__ does).
 */
#ifndef DF_CHANNEL_H
#define DF_CHANNEL_H

#include <Python.h>

/* A new event of class `cls` whose field `name` is `value`; NULL with an exception
 * set on failure (no memory). */
static PyObject *df_event(PyObject *cls, PyObject *name, PyObject *value) {
    PyTypeObject *type = (PyTypeObject *)cls;
    PyObject *event = type->tp_alloc(type, 0);
    if (event == NULL) {
        return NULL;
    }
    if (PyObject_GenericSetAttr(event, name, value) < 0) {
        Py_DECREF(event);
        return NULL;
    }
    return event;
}

#endif /* DF_CHANNEL_H */
