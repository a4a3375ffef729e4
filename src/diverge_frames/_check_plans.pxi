# Included by _frames_c.pyx: the fast check of encode. _check.h walks a value along
# the C copy of its _plans.Plan (built here, once, at import) and says whether it is
# canonical as it is; when it cannot say so, encode calls _checks.check, which decides.
# An int in an f64 member passes too (df_ok_floats): msgspec writes its digits, and
# _floats_written adds the ".0" that makes it the float rmcp writes.

from cpython.mem cimport PyMem_Calloc
from libc.limits cimport LLONG_MAX, LLONG_MIN

import sys
import types as _pytypes

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member
    ctypedef struct PyTypeObject:
        pass
    PyTypeObject *_type_of "Py_TYPE"(object o)

cdef extern from "_check.h":
    # The fast check of encode (see the header); the plans are filled in below.
    int _MAX_ALTS "DF_MAX_ALTS"
    int _MAX_PAYLOAD "DF_MAX_PAYLOAD"
    int _MAX_ENUM "DF_MAX_ENUM"
    ctypedef struct df_alt:
        int kind
        long long low
        long long high
        PyObject *set
        int n_enum
        PyObject *enum_items[8]
        void *plan
        void *items
    ctypedef struct df_alts:
        int n
        df_alt alt[4]
    ctypedef struct df_field:
        Py_ssize_t offset
        int flags
        df_alts alts
        const char *wire
        Py_ssize_t wire_len
    ctypedef struct df_floats:
        int n
        int depth[4]
        const char *names[4][4]
        Py_ssize_t lens[4][4]
    ctypedef struct df_plan:
        PyTypeObject *cls
        Py_ssize_t n
        df_field *fields
        Py_ssize_t status
        PyObject *by_status
        int n_payload
        Py_ssize_t payload[4]
    PyObject *df_unset
    PyObject *df_meta_key
    int df_max_depth
    int _MAX_FLOATS "DF_MAX_FLOATS"
    bint _ok "df_ok"(object v, const df_plan *plan) noexcept
    bint _ok_floats "df_ok_floats"(object v, const df_plan *plan, df_floats *floats) noexcept
    bint _all_none "df_all_none"(object value, const df_plan *plan) noexcept
    bint _keys_ordered "df_keys_ordered"() noexcept
    bint _exponents_possible "df_exponents_possible"() noexcept
    int _custom_params "df_custom_params"() noexcept
    int _PARAMS_NO_META "DF_PARAMS_NO_META"
    PyObject *_member "DF_MEMBER"(object obj, Py_ssize_t offset) noexcept
    int DF_KIND_STR, DF_KIND_BOOL, DF_KIND_F64, DF_KIND_INT, DF_KIND_ENUM, DF_KIND_JSON
    int DF_KIND_OBJECT, DF_KIND_STRUCT, DF_KIND_LIST, DF_KIND_MAP, DF_KIND_F32, DF_KIND_MODEL
    int DF_FLAG_NONE, DF_FLAG_UNSET, DF_FLAG_NONE_DEFAULT, DF_FLAG_NONE_UNSET
    int DF_FLAG_UNSET_NONE, DF_FLAG_EMPTY_NONE, DF_FLAG_META_OBJECT

cdef extern from "_write_f64.h":
    Py_ssize_t _member_end "df_sj_member_end"(const unsigned char *p, Py_ssize_t n,
                                              const char **names, const Py_ssize_t *lens,
                                              int depth) noexcept nogil
    Py_ssize_t _point_zero "df_sj_point_zero"(const unsigned char *p, Py_ssize_t n,
                                              const Py_ssize_t *at, int count,
                                              unsigned char *out) noexcept nogil


# ------------------------------------------------------------------ the encode check


cdef Py_ssize_t _slot_offset(object cls, str name) except -1:
    """Where an instance of the msgspec struct ``cls`` keeps its field ``name``: the
    offset of the member slot its descriptor reads (``DF_MEMBER``). ImportError when
    the field is no member slot."""
    descriptor = next((vars(b)[name] for b in cls.__mro__ if name in vars(b)), None)
    if type(descriptor) is not _pytypes.MemberDescriptorType:
        raise ImportError(f"{cls.__name__}.{name} is not a member slot")
    return (<PyMemberDescrObject *>descriptor).d_member.offset

#: The C header's kinds and flags, for the test that holds them equal to _plans'.
CHECK_CONSTANTS = {
    "KIND_STR": DF_KIND_STR, "KIND_BOOL": DF_KIND_BOOL, "KIND_F64": DF_KIND_F64,
    "KIND_INT": DF_KIND_INT, "KIND_ENUM": DF_KIND_ENUM, "KIND_JSON": DF_KIND_JSON,
    "KIND_OBJECT": DF_KIND_OBJECT, "KIND_STRUCT": DF_KIND_STRUCT, "KIND_LIST": DF_KIND_LIST,
    "KIND_MAP": DF_KIND_MAP,
    "KIND_F32": DF_KIND_F32, "KIND_MODEL": DF_KIND_MODEL,
    "FLAG_NONE": DF_FLAG_NONE, "FLAG_UNSET": DF_FLAG_UNSET,
    "FLAG_NONE_DEFAULT": DF_FLAG_NONE_DEFAULT, "FLAG_NONE_UNSET": DF_FLAG_NONE_UNSET,
    "FLAG_UNSET_NONE": DF_FLAG_UNSET_NONE, "FLAG_EMPTY_NONE": DF_FLAG_EMPTY_NONE,
    "FLAG_META_OBJECT": DF_FLAG_META_OBJECT,
}
cdef object _check = _checks.check
cdef object _unicode_error = _checks.unicode_error
#: Python objects the C plans point to (their dicts), kept alive with the module.
cdef list _KEEP = []
cdef dict _BUILT = {}  # id(_plans.Plan) -> address of its df_plan
# What a notification channel carries, for one look-up by type that finds the class
# and its plan: the custom notification, the error, then the typed notifications.
cdef enum:
    _MAX_TOP = 32
    _I_CUSTOM = 0
    _I_ERROR = 1
cdef PyTypeObject *_TOP_CLS[_MAX_TOP]
cdef df_plan *_TOP_PLAN[_MAX_TOP]
cdef int _N_TOP = 0
cdef df_plan *_RESULT_PLAN = NULL
#: Of a typed notification class rmcp writes as its method alone when every member is
#: None (the bare notifications, _frames_c.pyx): those bytes, tag byte first; else NULL.
cdef PyObject *_BARE_WRITTEN[_MAX_TOP]


cdef df_plan *_c_plan(object plan) except NULL:
    """The C copy of a ``_plans.Plan`` (built once; plans may refer to each other)."""
    address = _BUILT.get(id(plan))
    if address is not None:
        return <df_plan *><Py_ssize_t>address
    cdef df_plan *c = <df_plan *>PyMem_Calloc(1, sizeof(df_plan))
    if c == NULL:
        raise MemoryError()
    _BUILT[id(plan)] = <Py_ssize_t>c
    cls = plan.cls
    c.cls = <PyTypeObject *>cls
    c.n = len(plan.fields)
    c.fields = <df_field *>PyMem_Calloc(max(c.n, 1), sizeof(df_field))
    if c.fields == NULL:
        raise MemoryError()
    for i, field in enumerate(plan.fields):
        c.fields[i].offset = _slot_offset(cls, field.name)
        c.fields[i].flags = field.flags
        wire = field.wire.encode()
        _KEEP.append(wire)
        c.fields[i].wire = PyBytes_AS_STRING(wire)
        c.fields[i].wire_len = PyBytes_GET_SIZE(wire)
        _c_alts(&c.fields[i].alts, field.alternatives)
    c.status = -1
    if plan.payload is not None:
        status, by_status, members = plan.payload
        if len(members) > _MAX_PAYLOAD:
            raise ImportError(f"{cls.__name__}: more payload members than DF_MAX_PAYLOAD")
        c.status = status
        _KEEP.append(by_status)
        c.by_status = <PyObject *>by_status
        c.n_payload = len(members)
        for j, index in enumerate(members):
            c.payload[j] = index
    return c


cdef int _c_alts(df_alts *c, object alternatives) except -1:
    if len(alternatives) > _MAX_ALTS:
        raise ImportError(f"more alternatives than DF_MAX_ALTS: {alternatives!r}")
    c.n = len(alternatives)
    for i, (kind, arg) in enumerate(alternatives):
        c.alt[i].kind = kind
        if kind == DF_KIND_INT:
            low, high = arg
            c.alt[i].low = max(low, LLONG_MIN)
            c.alt[i].high = min(high, LLONG_MAX)
        elif kind == DF_KIND_ENUM:
            _KEEP.append(arg)
            c.alt[i].set = <PyObject *>arg
            c.alt[i].n_enum = min(len(arg), _MAX_ENUM)
            for j, item in enumerate(sorted(arg)[:_MAX_ENUM]):
                c.alt[i].enum_items[j] = <PyObject *>item  # kept alive by the set
        elif kind == DF_KIND_STRUCT:
            c.alt[i].plan = _c_plan(arg)
        elif kind == DF_KIND_LIST or kind == DF_KIND_MAP:
            c.alt[i].items = PyMem_Calloc(1, sizeof(df_alts))
            if c.alt[i].items == NULL:
                raise MemoryError()
            _c_alts(<df_alts *>c.alt[i].items, arg)
        elif kind == DF_KIND_MODEL:
            # The C walk leaves this kind to the Python check; the plans it holds are
            # built all the same (every plan has its C copy).
            c.alt[i].items = PyMem_Calloc(1, sizeof(df_alts))
            if c.alt[i].items == NULL:
                raise MemoryError()
            _c_alts(<df_alts *>c.alt[i].items, arg[0])
    return 0


df_unset = <PyObject *>msgspec.UNSET
_META_KEY = sys.intern("_meta")
df_meta_key = <PyObject *>_META_KEY
df_max_depth = _MAX_DEPTH
for _cls in (t.CustomNotification, t.ErrorData, *t.TYPED_NOTIFICATIONS):
    if _N_TOP == _MAX_TOP:
        raise ImportError("more notification classes than _MAX_TOP")
    _TOP_CLS[_N_TOP] = <PyTypeObject *>_cls
    _TOP_PLAN[_N_TOP] = _c_plan(_plans.PLANS[_cls])
    _N_TOP += 1
_RESULT_PLAN = _c_plan(_plans.PLANS[t.ReadResourceResult])
if not all(id(_plan) in _BUILT for _plan in _plans.PLANS.values()):
    raise ImportError("a plan of _plans has no C copy")


cdef inline int _top(object value) noexcept:
    """Where ``type(value)`` is in ``_TOP_CLS``, or -1."""
    cdef PyTypeObject *cls = _type_of(value)
    cdef int i
    for i in range(_N_TOP):
        if _TOP_CLS[i] == cls:
            return i
    return -1


cdef object _floats_written(bytes out, const df_floats *floats):
    """``out`` (a tag byte, then msgspec's JSON of a value ``df_ok_floats`` passed) with
    ``.0`` after each int it listed, as rmcp writes those f64s (``1`` -> ``1.0``); None
    when one is not where its path says (the caller then writes the canonical copy)."""
    cdef Py_ssize_t at[4]
    cdef Py_ssize_t end, swap, n = PyBytes_GET_SIZE(out)
    cdef const unsigned char *p = <const unsigned char *>PyBytes_AS_STRING(out)
    cdef int k, j
    for k in range(floats.n):
        end = _member_end(p + 1, n - 1, <const char **>floats.names[k], floats.lens[k],
                          floats.depth[k])
        if end < 0:
            return None
        at[k] = end + 1
        j = k
        while j > 0 and at[j - 1] > at[j]:  # ascending (a few members)
            swap = at[j - 1]
            at[j - 1] = at[j]
            at[j] = swap
            j -= 1
    written = PyBytes_FromStringAndSize(NULL, n + 2 * floats.n)
    _point_zero(p, n, at, floats.n, <unsigned char *>PyBytes_AS_STRING(written))
    return written


def _fast_check(value):
    """Whether the C walk alone passes ``value`` (for the tests of the walk)."""
    cdef df_floats floats
    if type(value) is _Result:
        return bool(_ok(value, _RESULT_PLAN))
    cdef int i = _top(value)
    return i >= 0 and bool(_ok_floats(value, _TOP_PLAN[i], &floats))
