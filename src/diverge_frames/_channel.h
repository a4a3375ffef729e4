/* The compiled channel twin's one piece of C (_channel_c.pyx): building an event, and
 * refilling one that no one else holds.
 *
 * An event (diverge_frames.channel.Notification, Result, Error) is a frozen dataclass
 * with slots and one field. Its generated __init__ stores that field through
 * object.__setattr__, past the frozen __setattr__, into the slot its member descriptor
 * names. df_event makes the same object without the Python frame and without the
 * attribute lookup: the bare instance from the type's tp_alloc (what object.__new__
 * does for a class with no __new__ of its own), then the value stored in the slot at
 * the offset df_slot_offset read, once, from the member descriptor (what a member
 * descriptor's __set__ does on an empty slot).
 */
#ifndef DF_CHANNEL_H
#define DF_CHANNEL_H

#include <Python.h>

#ifndef Py_T_OBJECT_EX /* Python 3.10 and 3.11: the names before 3.12's Py_ ones */
#include <structmember.h>
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

/* The offset of the writable object slot that `descr`, a member descriptor of `cls`,
 * reads and writes; -1 with ImportError set if `descr` is anything else (then the
 * module does not import and the pure twin is used). */
static Py_ssize_t df_slot_offset(PyObject *cls, PyObject *descr) {
    if (!PyType_Check(cls) || !Py_IS_TYPE(descr, &PyMemberDescr_Type) ||
        PyDescr_TYPE(descr) != (PyTypeObject *)cls) {
        PyErr_SetString(PyExc_ImportError, "an event field is not a slot of its class");
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != Py_T_OBJECT_EX || (member->flags & Py_READONLY) ||
        member->offset < (Py_ssize_t)sizeof(PyObject) ||
        member->offset + (Py_ssize_t)sizeof(PyObject *) > ((PyTypeObject *)cls)->tp_basicsize) {
        PyErr_SetString(PyExc_ImportError, "an event field is not a writable object slot");
        return -1;
    }
    return member->offset;
}

/* A new event of class `cls` whose one field, the slot at `offset` (df_slot_offset's),
 * holds `value`; NULL with an exception set on failure (no memory). */
static PyObject *df_event(PyObject *cls, Py_ssize_t offset, PyObject *value) {
    PyTypeObject *type = (PyTypeObject *)cls;
    PyObject *event = type->tp_alloc(type, 0); /* zeroed: the slot is empty */
    if (event == NULL) {
        return NULL;
    }
    Py_INCREF(value);
    *(PyObject **)((char *)event + offset) = value;
    return event;
}

/* Whether a channel may reuse the event it last returned (df_refill): with the GIL, a
 * reference count read and an object changed in a few C lines are atomic; a
 * free-threaded build builds every event anew. */
#ifdef Py_GIL_DISABLED
#define DF_EVENT_REUSE 0
#else
#define DF_EVENT_REUSE 1
#endif

/* `event` (one df_event built) made to hold `value` in the slot at `offset` instead of
 * what it held: only for an event nothing else holds, so no one sees it change. */
static void df_refill(PyObject *event, Py_ssize_t offset, PyObject *value) {
    PyObject **slot = (PyObject **)((char *)event + offset);
    PyObject *old = *slot;
    Py_INCREF(value);
    *slot = value;
    Py_XDECREF(old); /* last: its dealloc may run code, and the event is whole again */
}

#endif /* DF_CHANNEL_H */
