/* The fast check of encode (_frames_c.pyx), in C over Python objects.
 *
 * The rules are _plans.py's: its plans (one per struct class: each member's kinds,
 * integer bounds, enum sets and None/UNSET flags) are copied into the df_plan tables
 * below once, at import, by _frames_c.pyx. df_ok says only "certainly written as rmcp
 * writes it, as it is" (1) or "not sure" (0); on 0 the caller runs _checks.check, which
 * decides, makes a canonical copy or raises with the member's path. So every test here
 * may be stricter than the rule, never looser: exact builtin types only (no subclass,
 * no enum member), integers within long long, an int in an f64 member, None or UNSET
 * wherever a constructor rule would replace it, all give 0. df_ok_floats is df_ok that
 * also passes an int in an f64 member (within 2^53, through struct members only): it
 * lists each one (df_floats), for the caller to write as the float rmcp writes.
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
    const char *wire; /* the member's name on the wire (kept alive by _frames_c) */
    df_ssize wire_len;
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

/* An int whose magnitude is at most this (2^53) is a float exactly, which msgspec writes
 * as the int's digits and ".0" (tests/test_checks.py holds it to the canonical copy). */
#define DF_EXACT_INT (1LL << 53)
/* df_floats: at most this many ints, each at most this many struct members deep. */
#define DF_MAX_FLOATS 4
#define DF_MAX_CHAIN 4

/* The ints in f64 members that df_ok_floats passed: msgspec writes each as its digits,
 * and the caller writes ".0" after them (_write_f64.h's df_sj_member_end finds each by
 * its path, the wire names of the struct members it is in from the top). */
typedef struct {
    int n;
    int depth[DF_MAX_FLOATS];
    const char *names[DF_MAX_FLOATS][DF_MAX_CHAIN];
    df_ssize lens[DF_MAX_FLOATS][DF_MAX_CHAIN];
    const df_field *at[DF_MAX_CHAIN]; /* while it walks: the member at each level */
} df_floats;

static int df_ok_alts(PyObject *v, const df_alts *alts, int level, df_floats *floats);

/* Whether every dict the last df_ok or df_ok_floats walked had its keys in sorted order
 * (df_keys_ordered says), so that msgspec's encoder without order="deterministic" writes
 * what it writes with it: the dicts' sort is skipped (it was 0.21x of msgspec's time on an
 * error with two nested objects). Kept with a GIL only: without one, a global would race. */
static int df_keys_in_order = 1;

DF_INLINE int df_keys_ordered(void) { return !DF_GIL_DISABLED && df_keys_in_order; }

/* What the last df_ok_floats saw of a custom notification's params (the one member
 * FLAG_META_OBJECT marks): DF_PARAMS_UNSEEN (not walked: None, or another class),
 * DF_PARAMS_NO_META (a dict without a "_meta" key: rmcp writes it in the encoder's own
 * order) or DF_PARAMS_META. With a GIL only, as df_keys_in_order. */
#define DF_PARAMS_UNSEEN 0
#define DF_PARAMS_NO_META 1
#define DF_PARAMS_META 2
static int df_params_seen = DF_PARAMS_UNSEEN;

DF_INLINE int df_custom_params(void) { return DF_GIL_DISABLED ? DF_PARAMS_UNSEEN : df_params_seen; }

/* msgspec writes a finite double whose magnitude is 0 or in [1e-5, 1e16) without an
 * exponent ("0.00001", "9999999999999998.0"), any other with one ("1e16", "1e-6"), which
 * serde_json writes otherwise ("1e+16"; _write_f64.h). df_f64_plain is true for those
 * from DF_PLAIN_F64_LOW to below DF_PLAIN_F64_HIGH (a decade inside msgspec's bounds at
 * each end) and 0: never for one msgspec writes with an exponent (tests/test_checks.py
 * holds it to msgspec's output). */
#define DF_PLAIN_F64_LOW 1e-4
#define DF_PLAIN_F64_HIGH 1e15

DF_INLINE int df_f64_plain(double x) {
    double a = fabs(x);
    return a == 0.0 || (a >= DF_PLAIN_F64_LOW && a < DF_PLAIN_F64_HIGH);
}

/* Whether the last df_ok or df_ok_floats walked a float that is not df_f64_plain, which
 * msgspec may write with an exponent: when it did not (and passed the value), msgspec's
 * output holds no exponent and the caller skips its search for one. With a GIL only, as
 * df_keys_in_order: without one it is always 1. */
static int df_floats_exponent = 1;

DF_INLINE int df_exponents_possible(void) { return DF_GIL_DISABLED || df_floats_exponent; }

/* In a walk: a finite float x, noted when msgspec may write it with an exponent. */
#define DF_NOTE_F64(x)                                                                   \
    do {                                                                                 \
        if (!DF_GIL_DISABLED && !df_f64_plain(x)) df_floats_exponent = 1;                \
    } while (0)

/* Whether the bytes x[:la] sort before y[:lb]: byte by byte, a prefix first (most keys
 * by their first byte). Of two strs' UTF-8, or of two Latin-1 strs' characters, that is
 * code point order. */
DF_ALWAYS_INLINE int df_bytes_before(const unsigned char *x, df_ssize la, const unsigned char *y,
                                     df_ssize lb) {
    int c;
    if (la && lb && x[0] != y[0]) return x[0] < y[0];
    c = memcmp(x, y, (size_t)(la < lb ? la : lb));
    return c < 0 || (c == 0 && la < lb);
}

/* Whether the exact str a sorts before the exact str b as msgspec's order="deterministic"
 * sorts a dict's keys, and serde_json's Map (a BTreeMap) does: by code point (UTF-8's byte
 * order). */
DF_INLINE int df_key_before(PyObject *a, PyObject *b) {
    if (PyUnicode_KIND(a) == PyUnicode_1BYTE_KIND && PyUnicode_KIND(b) == PyUnicode_1BYTE_KIND) {
        return df_bytes_before((const unsigned char *)PyUnicode_DATA(a), PyUnicode_GET_LENGTH(a),
                               (const unsigned char *)PyUnicode_DATA(b), PyUnicode_GET_LENGTH(b));
    }
    return PyUnicode_Compare(a, b) < 0;
}

/* In a dict's walk: note when `key` (an exact str) does not sort after the key before it. */
#define DF_KEY_IN_ORDER(before, key)                                                     \
    do {                                                                                 \
        if (!DF_GIL_DISABLED && df_keys_in_order && (before) != NULL &&                  \
            !df_key_before((before), (key)))                                             \
            df_keys_in_order = 0;                                                        \
        (before) = (key);                                                                \
    } while (0)

#define DF_MEMBER(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* Every member of the struct `value`, of the plan's class, is None (a list-changed
 * notification without params, which rmcp writes as its method alone). */
DF_INLINE int df_all_none(PyObject *value, const df_plan *plan) {
    for (Py_ssize_t i = 0; i < plan->n; i++) {
        if (DF_MEMBER(value, plan->fields[i].offset) != Py_None) return 0;
    }
    return 1;
}

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
        double x = PyFloat_AS_DOUBLE(v);
        if (!isfinite(x)) return 0;
        DF_NOTE_F64(x);
        return 1;
    }
    if (level + 1 > df_max_depth) {
        return 0;
    }
    if (PyDict_CheckExact(v)) {
        Py_ssize_t pos = 0;
        PyObject *key, *item, *before = NULL;
        while (PyDict_Next(v, &pos, &key, &item)) {
            if (!PyUnicode_CheckExact(key) || !df_ok_json(item, level + 1)) {
                return 0;
            }
            DF_KEY_IN_ORDER(before, key);
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
    PyObject *key, *item, *before = NULL;
    int seen = DF_PARAMS_NO_META;
    if (level + 1 > df_max_depth) {
        return 0;
    }
    while (PyDict_Next(v, &pos, &key, &item)) {
        if (!PyUnicode_CheckExact(key)) {
            return 0;
        }
        DF_KEY_IN_ORDER(before, key);
        if (df_is_meta_key(key)) {
            if (item != Py_None && !PyDict_CheckExact(item)) {
                return 0;
            }
            seen = DF_PARAMS_META;
        }
        if (!df_ok_json(item, level + 1)) {
            return 0;
        }
    }
    if (!DF_GIL_DISABLED) df_params_seen = seen;
    return 1;
}

/* ``v``, an exact int in an f64 member at ``level``: 1 (listed in ``floats``) when
 * msgspec writes the float it stands for as its digits and ".0" and its path fits. */
static int df_int_as_float(PyObject *v, df_floats *floats, int level) {
    int overflow = 0, k = floats->n;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (overflow || x < -DF_EXACT_INT || x > DF_EXACT_INT || k == DF_MAX_FLOATS ||
        level > DF_MAX_CHAIN) {
        return 0; /* the Python check's float() decides (a copy, or out of range) */
    }
    for (int j = 0; j < level; j++) {
        floats->names[k][j] = floats->at[j]->wire;
        floats->lens[k][j] = floats->at[j]->wire_len;
    }
    floats->depth[k] = level;
    floats->n = k + 1;
    return 1;
}

/* The members of a struct at ``level`` (1 at the top) hold canonical values (with
 * ``floats``: ints in f64 members listed there too). */
static int df_ok_struct(PyObject *value, const df_plan *plan, int level, df_floats *floats) {
    for (Py_ssize_t i = 0; i < plan->n; i++) {
        const df_field *f = &plan->fields[i];
        PyObject *v = DF_MEMBER(value, f->offset);
        if (floats != NULL && level <= DF_MAX_CHAIN) {
            floats->at[level - 1] = f;
        }
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
        if (!df_ok_alts(v, &f->alts, level, floats)) {
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

/* ``v`` (not None, not UNSET) fits one of ``alts`` as it is, in a container at ``level``
 * (with ``floats``, the member of a struct reached through struct members only). */
static int df_ok_alts(PyObject *v, const df_alts *alts, int level, df_floats *floats) {
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
                double x = PyFloat_AS_DOUBLE(v);
                if (!isfinite(x)) return 0;
                DF_NOTE_F64(x);
                return 1;
            }
            if (floats != NULL && PyLong_CheckExact(v)) {
                return df_int_as_float(v, floats, level);
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
                return level + 1 <= df_max_depth &&
                       df_ok_struct(v, a->plan, level + 1, floats);
            }
            break;
        case DF_KIND_LIST:
            if (PyList_CheckExact(v)) {
                if (level + 1 > df_max_depth) {
                    return 0;
                }
                for (Py_ssize_t j = 0; j < PyList_GET_SIZE(v); j++) {
                    PyObject *item = PyList_GET_ITEM(v, j);
                    if (item == Py_None || !df_ok_alts(item, a->items, level + 1, NULL)) {
                        return 0;
                    }
                }
                return 1;
            }
            break;
        case DF_KIND_MAP:
            if (PyDict_CheckExact(v)) {
                Py_ssize_t pos = 0;
                PyObject *key, *item, *before = NULL;
                if (level + 1 > df_max_depth) {
                    return 0;
                }
                while (PyDict_Next(v, &pos, &key, &item)) {
                    if (!PyUnicode_CheckExact(key) || item == Py_None ||
                        !df_ok_alts(item, a->items, level + 1, NULL)) {
                        return 0;
                    }
                    DF_KEY_IN_ORDER(before, key);
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
    if (!DF_GIL_DISABLED) {
        df_keys_in_order = 1;
        df_floats_exponent = 0;
    }
    return Py_TYPE(v) == plan->cls && df_ok_struct(v, plan, 1, NULL);
}

/* df_ok, passing also the ints in f64 members that ``floats`` then lists. */
static int df_ok_floats(PyObject *v, const df_plan *plan, df_floats *floats) {
    floats->n = 0;
    if (!DF_GIL_DISABLED) {
        df_keys_in_order = 1;
        df_floats_exponent = 0;
        df_params_seen = DF_PARAMS_UNSEEN;
    }
    return Py_TYPE(v) == plan->cls && df_ok_struct(v, plan, 1, floats);
}

#endif /* DF_CHECK_H */
