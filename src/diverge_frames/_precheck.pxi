# Included by _frames_c.pyx, after _public.pxi: the pre-check and the exact rewrite.
# serde_json's reading in C (_serde_json.h) as the pre-check, the rewrite of a body for
# msgspec, and the tree handed down to rmcp's rules (_exact.rmcp_read.decode_exact).
# Uses only the .pyx's head and the fragments included before it.

cdef extern from "_serde_json.h":
    # serde_json's reading and writing (see the header).
    ctypedef struct df_sj_member:
        const unsigned char *name
        int len
        int child
        int flags
    ctypedef struct df_sj_position:
        int first
        int count
        int items
        int model_below
    int _SJ_MAX_MEMBERS "DF_SJ_MAX_MEMBERS"
    ctypedef struct df_sj_rules:
        const df_sj_position *positions
        const df_sj_member *members
        int root
        int direct
        int keep
        int deepest
        const df_sj_member *models
        int n_models
        const df_sj_member *watch
        int n_watch
    ctypedef struct df_sj_result:
        int reason
        Py_ssize_t at
        int top
        Py_ssize_t edits
        Py_ssize_t skipped
        int repeated
        int model
        uint64_t repeated_top
        int top_keys
        unsigned watched
    int _SJ_MAX_DEPTH "DF_SJ_MAX_DEPTH"
    int _SJ_MAX_POWER "DF_SJ_MAX_POWER"
    unsigned long long _SJ_MAX_SIGNIFICAND "DF_SJ_MAX_SIGNIFICAND"
    int _WRITE_KEYS "DF_SJ_WRITE_KEYS"
    int _MODEL "DF_SJ_MODEL"
    int _WRITE_SKIPPED "DF_SJ_WRITE_SKIPPED"
    int DF_SJ_EXPECTED_VALUE, DF_SJ_TRAILING, DF_SJ_EXPECTED_COMMA, DF_SJ_EXPECTED_COMMA_TOP
    int DF_SJ_KEY, DF_SJ_COLON, DF_SJ_NUMBER, DF_SJ_STRING, DF_SJ_UNICODE, DF_SJ_SURROGATE
    int DF_SJ_RANGE, DF_SJ_DEPTH
    Py_ssize_t _sj_scan "df_sj_scan"(const unsigned char *p, Py_ssize_t n,
                                     const df_sj_rules *rules, df_sj_result *r,
                                     unsigned char *out, Py_ssize_t cap, int write) noexcept nogil
    Py_ssize_t _sj_rewritten "df_sj_rewritten"(Py_ssize_t n, const df_sj_result *r,
                                               int write) noexcept nogil
    Py_ssize_t _sj_exponents "df_sj_exponents"(const unsigned char *p, Py_ssize_t n,
                                               unsigned char *out) noexcept nogil
    int _sj_index "df_sj_index"(df_sj_position *positions, int count,
                                const df_sj_member *members) noexcept nogil
    int _sj_glance "df_sj_glance"(const unsigned char *p, Py_ssize_t n,
                                  const df_sj_rules *rules, int *top_keys,
                                  unsigned *watched) noexcept nogil
    int _sj_glance_ready "df_sj_glance_ready"(df_sj_rules *rules) noexcept nogil
    int _SJ_GLANCE_DEPTH "DF_SJ_GLANCE_DEPTH"
    int _sj_maybe_hard "df_sj_maybe_hard"(const unsigned char *p, Py_ssize_t n,
                                          Py_ssize_t openings) noexcept nogil
    Py_ssize_t _sj_plain_run "df_sj_plain_run"(const unsigned char *p, Py_ssize_t n,
                                               Py_ssize_t j) noexcept nogil

cdef enum:
    # df_sj_result.top of a body df_sj_glance found plain, not scanned (_source)
    _GLANCED = -2
    # Room for the struct positions of the three bodies (_exact.rmcp_positions.STRUCT_POSITIONS).
    _MAX_POSITIONS = 64
    _MAX_MEMBERS = 256
    # A string's plain run (df_sj_plain_run) before its invalid UTF-8 this long or longer
    # is left out of the body msgspec is asked of for its words (_utf8_rejected).
    _PLAIN_RUN_CUT = 1024
    # Which rules: the index in _RULES, and the name of the body's type.
    _EXPECT_NOTIFICATION = 0
    _EXPECT_RESULT = 1
    _EXPECT_ERROR = 2

#: The header's copies of the rules' limits and reasons, for the test that holds them
#: equal to _serde_json's.
LIMITS = {
    "MAX_DEPTH": _SJ_MAX_DEPTH,
    "MAX_POWER": _SJ_MAX_POWER,
    "MAX_SIGNIFICAND": _SJ_MAX_SIGNIFICAND,
    "REASONS": {
        "EXPECTED_VALUE": DF_SJ_EXPECTED_VALUE, "TRAILING": DF_SJ_TRAILING,
        "EXPECTED_COMMA": DF_SJ_EXPECTED_COMMA, "EXPECTED_COMMA_TOP": DF_SJ_EXPECTED_COMMA_TOP,
        "KEY": DF_SJ_KEY, "COLON": DF_SJ_COLON, "NUMBER": DF_SJ_NUMBER, "STRING": DF_SJ_STRING,
        "UNICODE": DF_SJ_UNICODE, "SURROGATE": DF_SJ_SURROGATE, "RANGE": DF_SJ_RANGE,
        "DEPTH": DF_SJ_DEPTH,
    },
}

if _MAX_DEPTH != _SJ_MAX_DEPTH:
    raise ImportError("_frames_c's _MAX_DEPTH is not _serde_json.h's DF_SJ_MAX_DEPTH")

# The struct positions of each body, flattened for the header (df_sj_rules).
cdef tuple _EXPECTED = EXPECTED
if ((_EXPECT_NOTIFICATION, _EXPECT_RESULT, _EXPECT_ERROR)
        != (EXPECT_NOTIFICATION, EXPECT_RESULT, EXPECT_ERROR)):
    raise ImportError("_precheck.pxi's indexes are not _exact.rmcp_structs.EXPECTED's")
cdef df_sj_position _POSITIONS[_MAX_POSITIONS]
cdef df_sj_member _MEMBERS[_MAX_MEMBERS]
cdef df_sj_rules _RULES[3]
cdef list _NAMES = []  # the member names' bytes, alive as long as the module
cdef tuple _TOP_MEMBERS = tuple(STRUCT_POSITIONS[e].members for e in _EXPECTED)


cdef int _flatten(object position, int *n_positions, int *n_members) except -2:
    """Lay ``position`` (a Position, or None) out in _POSITIONS and _MEMBERS; its
    index, or -1 for None."""
    cdef int at, first, i
    if position is None:
        return -1
    if n_positions[0] == _MAX_POSITIONS or n_members[0] + len(position.members) > _MAX_MEMBERS:
        raise ImportError("too many struct positions for _MAX_POSITIONS / _MAX_MEMBERS")
    if len(position.members) > _SJ_MAX_MEMBERS:
        raise ImportError(f"a struct of more than {_SJ_MAX_MEMBERS} members (DF_SJ_MAX_MEMBERS)")
    at = n_positions[0]
    n_positions[0] += 1
    first = n_members[0]
    n_members[0] += len(position.members)
    _POSITIONS[at].first = first
    _POSITIONS[at].count = len(position.members)
    for i, name in enumerate(position.members):
        name = name.encode()
        _NAMES.append(name)
        _MEMBERS[first + i].name = <const unsigned char *>PyBytes_AS_STRING(name)
        _MEMBERS[first + i].len = <int>len(name)
        _MEMBERS[first + i].child = _flatten(position.children[i], n_positions, n_members)
        _MEMBERS[first + i].flags = _MODEL if position.members[i] in position.models else 0
    _POSITIONS[at].items = _flatten(position.items, n_positions, n_members)
    _POSITIONS[at].model_below = models_below(position)
    return at


def _walk(position, int depth=1):
    """Each position at or below ``position`` with its nesting (the top level: 1)."""
    if position is not None:
        yield position, depth
        for child in (*position.children, position.items):
            yield from _walk(child, depth + 1)


cdef df_sj_member _MODELS[3][8]  # each body's model members' names, for df_sj_glance


cdef void _glance_rules(int expected, object root) except *:
    """The rules df_sj_glance reads: the deepest struct position, the model names."""
    found = list(_walk(root))
    models = sorted({name.encode() for position, _ in found for name in position.models})
    if len(models) > 8:
        raise ImportError("more than 8 model members' names (_MODELS)")
    _RULES[expected].deepest = max(depth for _, depth in found)
    if _RULES[expected].deepest > _SJ_GLANCE_DEPTH:  # every body would be scanned
        raise ImportError("a struct position deeper than DF_SJ_GLANCE_DEPTH")
    for i, name in enumerate(models):
        _NAMES.append(name)
        _MODELS[expected][i].name = <const unsigned char *>PyBytes_AS_STRING(name)
        _MODELS[expected][i].len = <int>len(name)
    _RULES[expected].models = _MODELS[expected]
    _RULES[expected].n_models = len(models)


cdef int _n_positions = 0, _n_members = 0
for _k, _expected in enumerate(_EXPECTED):
    _RULES[_k].positions = _POSITIONS
    _RULES[_k].members = _MEMBERS
    _RULES[_k].root = _flatten(STRUCT_POSITIONS[_expected], &_n_positions, &_n_members)
    _RULES[_k].direct = _k != _EXPECT_NOTIFICATION  # read directly: unknown members skipped
    _RULES[_k].keep = STRUCT_DEPTH
    _glance_rules(_k, STRUCT_POSITIONS[_expected])
if _sj_index(_POSITIONS, _n_positions, _MEMBERS) != 0:
    raise ImportError("a struct position's member table does not fit")

# The keys the glance of a body watches for (its *watched bits): of a result, whether an
# item may be a blob, or a text (_read_resource picks the straight decoder by them); of
# a notification, whether its params may hold "_meta" (_custom_fast).
cdef unsigned _SAW_BLOB = 1, _SAW_TEXT = 2
cdef df_sj_member _RESULT_WATCH[2]
_RESULT_WATCH[0].name = <const unsigned char *>"blob"
_RESULT_WATCH[0].len = 4
_RESULT_WATCH[1].name = <const unsigned char *>"text"
_RESULT_WATCH[1].len = 4
_RULES[_EXPECT_RESULT].watch = _RESULT_WATCH
_RULES[_EXPECT_RESULT].n_watch = 2
cdef unsigned _SAW_META = 1
cdef df_sj_member _NOTIFICATION_WATCH[1]
_NOTIFICATION_WATCH[0].name = <const unsigned char *>"_meta"
_NOTIFICATION_WATCH[0].len = 5
_RULES[_EXPECT_NOTIFICATION].watch = _NOTIFICATION_WATCH
_RULES[_EXPECT_NOTIFICATION].n_watch = 1
for _k in range(3):
    if _sj_glance_ready(&_RULES[_k]) != 0:
        raise ImportError("more names watched for than DF_SJ_WATCH")


cdef bint _precheck(const unsigned char *p, Py_ssize_t n, int *top_keys,
                    int expected=_EXPECT_RESULT) noexcept nogil:
    """The pre-check as a yes or no, for a body of type ``_EXPECTED[expected]``: True when
    msgspec may read the body ``p[:n]`` otherwise than serde_json (see ``_scan``). When
    it says False and ``top_keys`` is not NULL, ``top_keys[0]`` is how many keys the
    top-level object has."""
    cdef df_sj_result r
    cdef int keys = 0
    cdef unsigned watched
    if not _sj_glance(p, n, &_RULES[expected], &keys, &watched):
        if top_keys != NULL:
            top_keys[0] = keys
        return False
    _scan(p, n, expected, &r)
    if top_keys != NULL:
        top_keys[0] = r.top_keys
    return _not_plain(&r)


cdef inline void _scan(const unsigned char *p, Py_ssize_t n, int expected,
                       df_sj_result *r) noexcept nogil:
    """Read ``p[:n]`` as serde_json reads the body of type ``_EXPECTED[expected]`` (the twin
    of ``_frames_py._precheck``): ``r`` says why serde_json rejects it, which tokens
    msgspec would read otherwise (``edits``, spelled anew by ``_rewrite``), and whether
    a member is repeated at a struct position (``repeated``: ``_exact`` decides)."""
    _count(_SCANS)
    _sj_scan(p, n, &_RULES[expected], r, NULL, 0, 0)


cdef inline bint _not_plain(const df_sj_result *r) noexcept nogil:
    return r.reason != 0 or r.repeated != 0 or r.edits != 0


class _Changed(Exception):
    """The body's bytes changed between two readings (another thread wrote to them)."""


cdef object _rewrite(const unsigned char *p, Py_ssize_t n, int expected, df_sj_result *r,
                     int write, int keep=STRUCT_DEPTH):
    """The body ``p[:n]`` written again (a new ``bytes``) so that msgspec reads
    serde_json's values from it: what ``r`` found to edit, and what ``write`` asks
    (``_WRITE_KEYS``: the keys of objects nested ``keep`` levels or less,
    ``_WRITE_SKIPPED``). Raises _Changed when the bytes changed since ``r`` was read."""
    cdef df_sj_result again
    cdef df_sj_rules rules = _RULES[expected]
    cdef Py_ssize_t size
    rules.keep = keep
    if keep != STRUCT_DEPTH:
        _count(_SCANS)
        _sj_scan(p, n, &rules, r, NULL, 0, 0)  # the keys' growth to that depth
    size = _sj_rewritten(n, r, write)
    _count(_SCANS)
    out = PyBytes_FromStringAndSize(NULL, size)
    if _sj_scan(p, n, &rules, &again, <unsigned char *>PyBytes_AS_STRING(out), size,
                write) != size:
        raise _Changed()
    return out


cdef bint _numbers_plain(object body):
    """Whether no number of ``body`` may need spelling anew for msgspec's error, at a
    glance: not ``_exact.rejection._maybe_hard`` of the part msgspec is asked of
    (``_stack.within_openings``), by its C copy, df_sj_maybe_hard."""
    cdef Py_buffer view
    PyObject_GetBuffer(body, &view, PyBUF_SIMPLE)
    try:
        return not _sj_maybe_hard(<const unsigned char *>view.buf, view.len,
                                  MSGSPEC_MESSAGE_OPENINGS)
    finally:
        PyBuffer_Release(&view)


def _maybe_hard(body):
    """df_sj_maybe_hard of a bytes-like ``body``, for the tests that hold it to the rule."""
    return not _numbers_plain(body)


cdef object _rejected(object body, int tag, int expected, const df_sj_result *r, object exc):
    """The FrameBodyError for a body the scan ``r`` found serde_json (or a repeated
    top-level member) rejects."""
    if r.reason:
        why = reject(REASONS[r.reason])
    else:  # the first repeated member of the top-level struct, in declaration order
        members = _TOP_MEMBERS[expected]
        why = duplicate_field(next(members[i] for i in range(len(members))
                                   if r.repeated_top >> i & 1))
    if r.reason == DF_SJ_UNICODE and exc is None:
        error = _utf8_rejected(body, tag, expected, r.at + 1)
        if error is not None:
            return error
    # A repeated member alone: serde_json read the body's syntax whole (parsed)
    return rejection(body, tag, expected, str(why), why.cause, exc, None, _numbers_plain(body),
                     parsed=not r.reason)


cdef object _utf8_rejected(object body, int tag, int expected, Py_ssize_t start):
    """msgspec's FrameBodyError for a body with invalid UTF-8 in the string whose
    characters start at ``start``, asked of the body without the string's plain run
    there (``_exact.rejection.utf8_rejection``), or None (a run shorter than
    _PLAIN_RUN_CUT, or other words)."""
    cdef Py_buffer view
    cdef Py_ssize_t run
    cdef const char *p
    PyObject_GetBuffer(body, &view, PyBUF_SIMPLE)
    try:
        p = <const char *>view.buf
        run = _sj_plain_run(<const unsigned char *>p, view.len, start)
        if run < _PLAIN_RUN_CUT:
            return None
        shortened = PyBytes_FromStringAndSize(NULL, view.len - run)
        memcpy(PyBytes_AS_STRING(shortened), p, start)
        memcpy(PyBytes_AS_STRING(shortened) + start, p + start + run, view.len - start - run)
    finally:
        PyBuffer_Release(&view)
    return utf8_rejection(shortened, tag, expected, _numbers_plain(shortened))


def _plain_run(body, Py_ssize_t start):
    """df_sj_plain_run of a bytes-like ``body`` from ``start``, for the tests."""
    cdef Py_buffer view
    PyObject_GetBuffer(body, &view, PyBUF_SIMPLE)
    try:
        if not 0 <= start <= view.len:
            raise IndexError(start)
        return _sj_plain_run(<const unsigned char *>view.buf, view.len, start)
    finally:
        PyBuffer_Release(&view)


cdef object _exact(object body, int tag, int expected, object exc,
                   const df_sj_result *scanned=NULL):
    """rmcp's reading of ``body`` (``_exact.rmcp_read.decode_exact``), the tree it reads built at C
    speed: the body scanned (unless ``scanned`` is its scan) and rewritten (numbers,
    skipped values written null, and with a repeated member each key of the objects
    nested ``STRUCT_DEPTH`` levels or less spelled with its index), read by msgspec,
    and made the tree (``tree``)."""
    cdef Py_buffer view
    cdef df_sj_result r
    cdef int write, keep
    PyObject_GetBuffer(body, &view, PyBUF_SIMPLE)
    try:
        if scanned == NULL:
            _scan(<const unsigned char *>view.buf, view.len, expected, &r)
        else:
            r = scanned[0]
        if r.reason or r.repeated_top:
            raise _rejected(body, tag, expected, &r, exc)
        # a model member (_exact.rmcp_types reads it): every object's pairs kept
        keep = _SJ_MAX_DEPTH if r.model else STRUCT_DEPTH
        write = (_WRITE_KEYS if r.repeated else 0) | (_WRITE_SKIPPED if r.skipped else 0)
        if write or r.edits:
            src = _rewrite(<const unsigned char *>view.buf, view.len, expected, &r, write, keep)
        else:
            src = body
    finally:
        PyBuffer_Release(&view)
    try:
        raw = _any_decoder(src)
    except _DECODE_ERRORS:  # what the scan leaves to msgspec (a raw control character)
        raise rejection(body, tag, expected, None, None, exc, None, _numbers_plain(body))
    return decode_exact(body, tree(raw, keep, bool(r.repeated)), tag, expected, exc)


cdef object _msgspec_rejected(object body, object src, int tag, int expected, object exc):
    """The FrameBodyError for a body the scan read and msgspec rejects (a raw control
    character in a string, which the scan leaves to msgspec, or bad syntax): serde_json
    rejects it too. Worded from msgspec's reading of the body itself (``exc``'s, unless
    it read a rewrite of it)."""
    return rejection(body, tag, expected, None, None, exc if src is body else None, None,
                     _numbers_plain(body))


cdef inline object _source(object body, const unsigned char *p, Py_ssize_t n, int tag,
                           int expected, df_sj_result *r):
    """What msgspec decodes for a body the scan ``r`` found no rule to apply to: the
    body, or its rewrite; None when ``r`` says the exact reading or an error. The body
    df_sj_glance finds plain is not scanned (only ``r.top_keys`` is set, and ``r.top`` is
    _GLANCED): when msgspec fails on it, ``_scanned`` scans it. Inline: each decode calls
    the glance itself, the scan out of line (``_source_scanned``)."""
    cdef int keys = 0
    cdef unsigned watched = 0
    if not _sj_glance(p, n, &_RULES[expected], &keys, &watched):
        r.top = _GLANCED
        r.top_keys = keys
        r.watched = watched
        return body
    return _source_scanned(body, p, n, tag, expected, r)


cdef object _source_scanned(object body, const unsigned char *p, Py_ssize_t n, int tag,
                            int expected, df_sj_result *r):
    """``_source`` of a body df_sj_glance did not find plain: scanned."""
    _scan(p, n, expected, r)
    if r.reason or r.repeated_top:
        raise _rejected(body, tag, expected, r, None)
    if r.repeated:
        return None
    if r.edits:
        return _rewrite(p, n, expected, r, 0)
    return body


cdef object _scanned(object body, const unsigned char *p, Py_ssize_t n, int tag, int expected,
                     df_sj_result *r):
    """After msgspec failed on a body ``_source`` only glanced at (a syntax error, or
    serde's sequence form of a struct, which msgspec rejects): the scan ``r`` done as
    ``_source`` would have done it, and what ``_source`` would have sent it to (an
    error raised, or the exact reading's value); None when msgspec's failure stands (the
    caller goes on with ``r`` the scan)."""
    _count(_READS)  # the msgspec reading that failed
    if r.top != _GLANCED:
        return None
    _scan(p, n, expected, r)
    if r.reason or r.repeated_top:
        raise _rejected(body, tag, expected, r, None)
    if r.repeated or r.edits:
        return _exact(body, tag, expected, None, r)
    return None
