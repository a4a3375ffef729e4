/* Writing an rmcp ErrorData in C, as serde_json writes it, in the one walk that checks it.
 *
 * rmcp's ErrorData is { code: i32, message: str, data: Option<serde_json::Value> },
 * "data" left out when None. serde_json (without "preserve_order") keeps an object's
 * members in a BTreeMap and so writes them sorted by key, in UTF-8's byte order, in
 * whatever order they were built. msgspec writes the same bytes with
 * order="deterministic", after the check's walk (_check.h) and a sort of every dict
 * into a list it allocates; here one walk checks and writes, each object's members
 * sorted on the stack by their keys' UTF-8, as msgspec sorts them (byte order is code
 * point order, the order of the check's df_key_before).
 *
 * df_write_error_data writes only what it is sure of and declines (-1) anything else,
 * for the caller's general path (check, msgspec, exponents), which decides, writes or
 * raises as before: a float anywhere (msgspec spells floats there), an int beyond long
 * long, a code beyond i32, anything but the exact builtin types, a str with a lone
 * surrogate, nesting past serde_json's limit (df_max_depth, as df_ok_json counts it),
 * an object of more than DF_JW_OBJECT members or more than DF_JW_MEMBERS members in the
 * objects open at once, or more output than the caller's room. Its work stays within a
 * few times the room: a str is measured against the room before its UTF-8 is made, an
 * object's key with the keys before it, and an object is sorted by insertion, of
 * DF_JW_OBJECT keys at most, each comparison a memcmp the room bounds. Borrowed
 * references only, no Python code run: with a GIL, nothing changes under it
 * (free-threaded builds take the general path).
 */
#ifndef DF_WRITE_ERROR_H
#define DF_WRITE_ERROR_H

#include <Python.h>
#include <string.h>

#include "_common.h"
#include "_capi.h"
#include "_check.h"
#include "_strings.h"

/* The members of one object, and of the objects being written at once (each object's
   own, sorted, on the stack of its parents'). */
#define DF_JW_OBJECT 32
#define DF_JW_MEMBERS 128

typedef struct {
    const unsigned char *key; /* its UTF-8 */
    df_ssize len;
    PyObject *value;
} df_jw_member;

typedef struct {
    unsigned char *d;
    df_ssize o, cap;
    int used; /* members[:used]: the open objects' */
    df_jw_member members[DF_JW_MEMBERS];
} df_jw;

/* s[:n] written as it is. */
DF_INLINE int df_jw_put(df_jw *w, const char *s, df_ssize n) {
    if (w->cap - w->o < n) return -1;
    memcpy(w->d + w->o, s, (size_t)n);
    w->o += n;
    return 0;
}

DF_INLINE int df_jw_byte(df_jw *w, unsigned char c) {
    if (w->o == w->cap) return -1;
    w->d[w->o++] = c;
    return 0;
}

/* The UTF-8 of an exact str into *p and *n (its own bytes when ASCII, else kept in it, as
   msgspec's encode keeps it), unless its characters alone are more than `room` bytes (no
   UTF-8 made then) or it holds a lone surrogate: 0, or -1. */
static int df_jw_utf8(PyObject *s, df_ssize room, const unsigned char **p, df_ssize *n) {
    Py_ssize_t size;
    if (PyUnicode_GET_LENGTH(s) > room) return -1;
    if (PyUnicode_IS_COMPACT_ASCII(s)) {
        *p = (const unsigned char *)PyUnicode_DATA(s);
        *n = PyUnicode_GET_LENGTH(s);
        return 0;
    }
    *p = (const unsigned char *)df_str_utf8(s, &size);
    if (*p == NULL) {
        PyErr_Clear(); /* a lone surrogate: the general path raises */
        return -1;
    }
    *n = size;
    return 0;
}

/* The UTF-8 p[:n] quoted and escaped as serde_json escapes a str (df_string_write). */
static int df_jw_quoted(df_jw *w, const unsigned char *p, df_ssize n) {
    df_ssize at = 0, room = w->cap - w->o - 2;
    if (room < n) return -1;
    w->d[w->o++] = '"';
    w->o += df_string_write(w->d + w->o, room, p, n, &at);
    if (at < n) return -1;
    w->d[w->o++] = '"';
    return 0;
}

/* An exact str, quoted and escaped. */
static int df_jw_str(df_jw *w, PyObject *s) {
    const unsigned char *p;
    df_ssize n;
    return df_jw_utf8(s, w->cap - w->o, &p, &n) < 0 ? -1 : df_jw_quoted(w, p, n);
}

/* x in decimal, as serde_json writes an i64. */
static int df_jw_int(df_jw *w, long long x) {
    char digits[24];
    int k = 24;
    unsigned long long u = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    do {
        digits[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0) digits[--k] = '-';
    return df_jw_put(w, digits + k, 24 - k);
}

/* Whether the key of a sorts before b's: by their UTF-8 (df_bytes_before). */
DF_INLINE int df_jw_before(const df_jw_member *a, const df_jw_member *b) {
    return df_bytes_before(a->key, a->len, b->key, b->len);
}

static int df_jw_value(df_jw *w, PyObject *v, int level);

/* An exact dict at `level`: its members sorted by key, each value at `level`. */
static int df_jw_object(df_jw *w, PyObject *v, int level) {
    PyObject *key, *item;
    Py_ssize_t pos = 0;
    df_jw_member m, *members = w->members + w->used;
    df_ssize room = w->cap - w->o, least = 2;
    int n = 0, j;
    if (PyDict_GET_SIZE(v) > DF_JW_OBJECT || PyDict_GET_SIZE(v) > DF_JW_MEMBERS - w->used) {
        return -1;
    }
    while (PyDict_Next(v, &pos, &key, &item)) {
        /* the least it writes: the keys' characters, quotes, colons and commas so far */
        if (!PyUnicode_CheckExact(key)) return -1;
        least += PyUnicode_GET_LENGTH(key) + 4;
        if (least > room || df_jw_utf8(key, room, &m.key, &m.len) < 0) return -1;
        m.value = item;
        for (j = n; j > 0 && df_jw_before(&m, &members[j - 1]); j--) members[j] = members[j - 1];
        members[j] = m;
        n++;
    }
    w->used += n;
    if (df_jw_byte(w, '{') < 0) return -1;
    for (j = 0; j < n; j++) {
        if ((j > 0 && df_jw_byte(w, ',') < 0) ||
            df_jw_quoted(w, members[j].key, members[j].len) < 0 || df_jw_byte(w, ':') < 0 ||
            df_jw_value(w, members[j].value, level) < 0) {
            return -1;
        }
    }
    w->used -= n;
    return df_jw_byte(w, '}');
}

/* A JSON value at `level` (as df_ok_json counts levels): its arrays' and objects'
   items at level + 1. */
static int df_jw_value(df_jw *w, PyObject *v, int level) {
    if (v == Py_None) return df_jw_put(w, "null", 4);
    if (v == Py_True) return df_jw_put(w, "true", 4);
    if (v == Py_False) return df_jw_put(w, "false", 5);
    if (PyUnicode_CheckExact(v)) return df_jw_str(w, v);
    if (PyLong_CheckExact(v)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow || (x == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return -1;
        }
        return df_jw_int(w, x);
    }
    if (level + 1 > df_max_depth) return -1;
    if (PyDict_CheckExact(v)) return df_jw_object(w, v, level + 1);
    if (PyList_CheckExact(v)) {
        if (df_jw_byte(w, '[') < 0) return -1;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++) {
            if ((i && df_jw_byte(w, ',') < 0) ||
                df_jw_value(w, PyList_GET_ITEM(v, i), level + 1) < 0) {
                return -1;
            }
        }
        return df_jw_byte(w, ']');
    }
    return -1; /* a float (msgspec spells it), or what the general path decides */
}

/* The JSON of the ErrorData `value` (its code, message and data members at these slot
   offsets) written at d, which has room for cap bytes: its length, or -1 when it
   declines (see above). */
static df_ssize df_write_error_data(PyObject *value, Py_ssize_t code_at, Py_ssize_t message_at,
                                    Py_ssize_t data_at, unsigned char *d, df_ssize cap) {
    df_jw w;
    PyObject *code = DF_MEMBER(value, code_at);
    PyObject *message = DF_MEMBER(value, message_at);
    PyObject *data = DF_MEMBER(value, data_at);
    long x;
    int overflow = 0;
    if (code == NULL || !PyLong_CheckExact(code) || message == NULL ||
        !PyUnicode_CheckExact(message) || data == NULL) {
        return -1;
    }
    x = PyLong_AsLongAndOverflow(code, &overflow);
    if (overflow || x < INT32_MIN || x > INT32_MAX) {
        PyErr_Clear();
        return -1;
    }
    w.d = d;
    w.o = 0;
    w.cap = cap;
    w.used = 0;
    if (df_jw_put(&w, "{\"code\":", 8) < 0 || df_jw_int(&w, x) < 0 ||
        df_jw_put(&w, ",\"message\":", 11) < 0 || df_jw_str(&w, message) < 0) {
        return -1;
    }
    if (data != Py_None &&
        (df_jw_put(&w, ",\"data\":", 8) < 0 || df_jw_value(&w, data, 1) < 0)) {
        return -1;
    }
    if (df_jw_byte(&w, '}') < 0) return -1;
    return w.o;
}

#endif /* DF_WRITE_ERROR_H */
