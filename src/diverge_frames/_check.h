/* The fast check of encode (_frames_c.pyx), in C over Python objects.
 *
 * The rules are _plans.py's: its plans (one per struct class: each member's kinds,
 * integer bounds, enum sets and None/UNSET flags) are copied into the df_plan tables
 * below once, at import, by _frames_c.pyx. df_ok says only "certainly written as rmcp
 * writes it, as it is" (1) or "not sure" (0); on 0 the caller runs _checks.check, which
 * decides, makes a canonical copy or raises with the member's path. So every test here
 * may be stricter than the rule, never looser: exact builtin types only (no subclass,
 * no enum member), integers within long long, an int in an f64 member, None or UNSET
 * wherever a constructor rule would replace it, all give 0.
 *
 * Struct members are read at their slot offsets (msgspec Structs keep fields in
 * CPython member slots; _frames_c.pyx takes each offset from the member descriptor and
 * uses none of this when a member is not one). Borrowed references only; nothing is
 * allocated and no Python code runs.
 */
#ifndef DF_CHECK_H
#define DF_CHECK_H

#include <Python.h>
#include <math.h>
#include <string.h>

#include "_common.h"

/* The kinds and flags of _plans.py (tests/test_checks.py holds them equal). */
enum {
    DF_KIND_STR = 0,
    DF_KIND_BOOL = 1,
    DF_KIND_F64 = 2,
    DF_KIND_INT = 3,
    DF_KIND_ENUM = 4,
    DF_KIND_JSON = 5,
    DF_KIND_OBJECT = 6,
    DF_KIND_STRUCT = 7,
    DF_KIND_LIST = 8,
    DF_KIND_MAP = 9,
    DF_KIND_F32 = 10, /* left to the Python check, which rounds it */
    DF_KIND_MODEL = 11, /* left to the Python check, which asks rmcp's model */
};
enum {
    DF_FLAG_NONE = 1,
    DF_FLAG_UNSET = 2,
    DF_FLAG_NONE_DEFAULT = 4,
    DF_FLAG_NONE_UNSET = 8,
    DF_FLAG_UNSET_NONE = 16,
    DF_FLAG_EMPTY_NONE = 32,
    DF_FLAG_META_OBJECT = 64,
};
/* Alternatives a member can have (``I64 | str``: 2); more and the plan is not copied. */
#define DF_MAX_ALTS 4
/* Strings of an enum compared by address before the set is asked (a decoded Literal is
 * one of these very objects). */
#define DF_MAX_ENUM 8
/* Payload members a status rule can name. */
#define DF_MAX_PAYLOAD 4

struct df_plan;

typedef struct df_alts df_alts;

typedef struct {
    int kind;
    long long low, high;    /* KIND_INT: the bounds, clamped to long long */
    PyObject *set;          /* KIND_ENUM: the frozenset of its strings */
    int n_enum;             /* KIND_ENUM: how many of them are in ``enum_items`` */
    PyObject *enum_items[DF_MAX_ENUM];
    struct df_plan *plan;   /* KIND_STRUCT */
    df_alts *items;         /* KIND_LIST, KIND_MAP: what each item takes */
} df_alt;

struct df_alts {
    int n;
    df_alt alt[DF_MAX_ALTS];
};

typedef struct {
    Py_ssize_t offset;
    int flags;
    df_alts alts;
} df_field;

typedef struct df_plan {
    PyTypeObject *cls;
    Py_ssize_t n;
    df_field *fields;
    /* A status rule (_plans.PAYLOAD_BY_STATUS): the status member's index, a dict
     * status -> payload member index (an int), the payload members' indexes. */
    Py_ssize_t status;      /* -1: no rule */
    PyObject *by_status;
    int n_payload;
    Py_ssize_t payload[DF_MAX_PAYLOAD];
} df_plan;

/* Set once at import: msgspec's UNSET, the interned "_meta" and the deepest nesting
 * serde_json reads. */
static PyObject *df_unset = NULL;
static PyObject *df_meta_key = NULL;
static int df_max_depth = 0;

static int df_ok_alts(PyObject *v, const df_alts *alts, int level);

#define DF_MEMBER(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* A JSON value (serde_json's Value): None, bool, exact str, int within long long
 * (wider ones: not sure), finite float, exact dict with str keys, exact list; its
 * arrays and objects at level + 1. */
static int df_ok_json(PyObject *v, int level) {
    if (v == Py_None || v == Py_True || v == Py_False || PyUnicode_CheckExact(v)) {
        return 1;
    }
    if (PyLong_CheckExact(v)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        return overflow == 0;
    }
    if (PyFloat_CheckExact(v)) {
        return isfinite(PyFloat_AS_DOUBLE(v));
    }
    if (level + 1 > df_max_depth) {
        return 0;
    }
    if (PyDict_CheckExact(v)) {
        Py_ssize_t pos = 0;
        PyObject *key, *item;
        while (PyDict_Next(v, &pos, &key, &item)) {
            if (!PyUnicode_CheckExact(key) || !df_ok_json(item, level + 1)) {
                return 0;
            }
        }
        return 1;
    }
    if (PyList_CheckExact(v)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++) {
            if (!df_ok_json(PyList_GET_ITEM(v, i), level + 1)) {
                return 0;
            }
        }
        return 1;
    }
    return 0;
}

/* ``k`` (an exact str) is "_meta". */
DF_INLINE int df_is_meta_key(PyObject *k) {
    return k == df_meta_key ||
           (PyUnicode_GET_LENGTH(k) == 5 && PyUnicode_KIND(k) == PyUnicode_1BYTE_KIND &&
            memcmp(PyUnicode_DATA(k), "_meta", 5) == 0);
}

/* A JSON object (exact dict, str keys) whose "_meta" member, if any, is a dict or None:
 * a custom notification's params (FLAG_META_OBJECT), in one pass. */
static int df_ok_meta_object(PyObject *v, int level) {
    Py_ssize_t pos = 0;
    PyObject *key, *item;
    if (level + 1 > df_max_depth) {
        return 0;
    }
    while (PyDict_Next(v, &pos, &key, &item)) {
        if (!PyUnicode_CheckExact(key)) {
            return 0;
        }
        if (df_is_meta_key(key) && item != Py_None && !PyDict_CheckExact(item)) {
            return 0;
        }
        if (!df_ok_json(item, level + 1)) {
            return 0;
        }
    }
    return 1;
}

/* The members of a struct at ``level`` (1 at the top) hold canonical values. */
static int df_ok_struct(PyObject *value, const df_plan *plan, int level) {
    for (Py_ssize_t i = 0; i < plan->n; i++) {
        const df_field *f = &plan->fields[i];
        PyObject *v = DF_MEMBER(value, f->offset);
        if (v == NULL) {
            return 0; /* deleted: missing */
        }
        if (v == Py_None) {
            if ((f->flags & (DF_FLAG_NONE | DF_FLAG_NONE_DEFAULT | DF_FLAG_NONE_UNSET)) !=
                DF_FLAG_NONE) {
                return 0;
            }
            continue;
        }
        if (v == df_unset) {
            if ((f->flags & (DF_FLAG_UNSET | DF_FLAG_UNSET_NONE)) != DF_FLAG_UNSET) {
                return 0;
            }
            continue;
        }
        if (f->alts.n > 0 && f->alts.alt[0].kind == DF_KIND_STR && PyUnicode_CheckExact(v)) {
            continue; /* the commonest member, a str: no flag applies to it */
        }
        if (f->flags & DF_FLAG_META_OBJECT) {
            if (!PyDict_CheckExact(v) || !df_ok_meta_object(v, level)) {
                return 0;
            }
            continue;
        }
        if (!df_ok_alts(v, &f->alts, level)) {
            return 0;
        }
        if (f->flags & DF_FLAG_EMPTY_NONE) {
            /* a struct whose members are all None stands for None: not canonical */
            const df_plan *sub = f->alts.alt[0].plan;
            Py_ssize_t j = 0;
            while (j < sub->n && DF_MEMBER(v, sub->fields[j].offset) == Py_None) {
                j++;
            }
            if (j == sub->n) {
                return 0;
            }
        }
    }
    if (plan->status >= 0) {
        PyObject *status = DF_MEMBER(value, plan->fields[plan->status].offset);
        PyObject *wanted = PyDict_GetItem(plan->by_status, status); /* status: a str */
        Py_ssize_t want = wanted == NULL ? -1 : PyLong_AsSsize_t(wanted);
        for (int j = 0; j < plan->n_payload; j++) {
            Py_ssize_t at = plan->payload[j];
            int present = DF_MEMBER(value, plan->fields[at].offset) != Py_None;
            if (present != (at == want)) {
                return 0;
            }
        }
    }
    return 1;
}

/* ``v`` (not None, not UNSET) fits one of ``alts`` as it is, in a container at ``level``. */
static int df_ok_alts(PyObject *v, const df_alts *alts, int level) {
    for (int i = 0; i < alts->n; i++) {
        const df_alt *a = &alts->alt[i];
        switch (a->kind) {
        case DF_KIND_STR:
            if (PyUnicode_CheckExact(v)) {
                return 1;
            }
            break;
        case DF_KIND_BOOL:
            if (v == Py_True || v == Py_False) {
                return 1;
            }
            break;
        case DF_KIND_F64:
            if (PyFloat_CheckExact(v)) {
                return isfinite(PyFloat_AS_DOUBLE(v));
            }
            break; /* an int is written as a float: not as it is */
        case DF_KIND_INT:
            if (PyLong_CheckExact(v)) {
                int overflow = 0;
                long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
                if (x == -1 && PyErr_Occurred()) {
                    PyErr_Clear();
                    return 0;
                }
                return overflow == 0 && a->low <= x && x <= a->high;
            }
            break;
        case DF_KIND_ENUM:
            if (PyUnicode_CheckExact(v)) {
                for (int j = 0; j < a->n_enum; j++) {
                    if (a->enum_items[j] == v) {
                        return 1;
                    }
                }
                int found = PySet_Contains(a->set, v);
                if (found < 0) {
                    PyErr_Clear();
                    return 0;
                }
                return found;
            }
            break;
        case DF_KIND_JSON:
            return df_ok_json(v, level);
        case DF_KIND_OBJECT:
            if (PyDict_CheckExact(v)) {
                return df_ok_json(v, level);
            }
            break;
        case DF_KIND_STRUCT:
            if (Py_TYPE(v) == a->plan->cls) {
                return level + 1 <= df_max_depth && df_ok_struct(v, a->plan, level + 1);
            }
            break;
        case DF_KIND_LIST:
            if (PyList_CheckExact(v)) {
                if (level + 1 > df_max_depth) {
                    return 0;
                }
                for (Py_ssize_t j = 0; j < PyList_GET_SIZE(v); j++) {
                    PyObject *item = PyList_GET_ITEM(v, j);
                    if (item == Py_None || !df_ok_alts(item, a->items, level + 1)) {
                        return 0;
                    }
                }
                return 1;
            }
            break;
        case DF_KIND_MAP:
            if (PyDict_CheckExact(v)) {
                Py_ssize_t pos = 0;
                PyObject *key, *item;
                if (level + 1 > df_max_depth) {
                    return 0;
                }
                while (PyDict_Next(v, &pos, &key, &item)) {
                    if (!PyUnicode_CheckExact(key) || item == Py_None ||
                        !df_ok_alts(item, a->items, level + 1)) {
                        return 0;
                    }
                }
                return 1;
            }
            break;
        default:
            return 0;
        }
    }
    return 0;
}

/* The value ``v`` of class ``plan->cls`` is written as rmcp writes it, as it is. */
static int df_ok(PyObject *v, const df_plan *plan) {
    return Py_TYPE(v) == plan->cls && df_ok_struct(v, plan, 1);
}

#endif /* DF_CHECK_H */
