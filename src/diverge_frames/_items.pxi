# Included by _frames_c.pyx, after _precheck.pxi: rmcp's item rule for a result's
# ``contents`` (``_exact.rmcp_read``'s untagged ``ResourceContents``) applied in C
# (_rmcp_items.h) to a body whose only rule to apply it is: no tree, no Python per item.
# Uses only the .pyx's head and the fragments included before it.

cdef extern from "_rmcp_items.h":
    # The item rule on a whole body (see the header).
    ctypedef struct df_rmcp_item_rules:
        int contents
        int cache_scope
        int item
        int text
        int blob
    int _ITEMS_READ "DF_ITEMS_READ"
    int _ITEMS_REJECT "DF_ITEMS_REJECT"
    int _rmcp_items "df_rmcp_items"(unsigned char *p, Py_ssize_t n, const df_sj_rules *rules,
                                    const df_rmcp_item_rules *items) noexcept nogil

cdef str _NO_VARIANT = NO_VARIANT
cdef df_rmcp_item_rules _ITEM_RULES


cdef int _member_bit(int position, str name) except -2:
    """The bit of member ``name`` in the flattened struct position ``position``, or -1."""
    cdef int i
    for i in range(_POSITIONS[position].count):
        member = _MEMBERS[_POSITIONS[position].first + i]
        if member.name[:member.len] == name.encode():
            return i
    return -1


cdef void _item_rules() except *:
    """``_ITEM_RULES`` from the result's flattened positions (``_precheck.pxi``)."""
    cdef int root = _RULES[_EXPECT_RESULT].root
    _ITEM_RULES.contents = _member_bit(root, "contents")
    _ITEM_RULES.cache_scope = _member_bit(root, "cacheScope")
    if _ITEM_RULES.contents < 0 or _ITEM_RULES.cache_scope < 0:
        raise ImportError("ReadResourceResult's struct position has no contents or cacheScope")
    contents = _MEMBERS[_POSITIONS[root].first + _ITEM_RULES.contents].child
    _ITEM_RULES.item = _POSITIONS[contents].items if contents >= 0 else -1
    if _ITEM_RULES.item < 0:
        raise ImportError("ReadResourceResult's contents have no item position")
    _ITEM_RULES.text = _member_bit(_ITEM_RULES.item, "text")
    _ITEM_RULES.blob = _member_bit(_ITEM_RULES.item, "blob")
    if _ITEM_RULES.text < 0 or _ITEM_RULES.blob < 0:
        raise ImportError("a contents item's struct position has no text or blob")


_item_rules()


cdef object _items_read(object body, const unsigned char *p, Py_ssize_t n, int tag,
                        df_sj_result *r):
    """rmcp's reading of the result body ``p[:n]`` the scan ``r`` found repeated members in.

    The item rule applied in C to a copy of the body (its rewrite when ``r`` has edits),
    which msgspec then reads as the plain path does, the item made text or blob in
    ``_result``; a rejection worded as the exact reading words it (``rejection``, from
    its reason or from what failed). None when another rule applies (a unit enum's map
    form, serde's sequence form of the result): the exact reading decides.
    """
    cdef int found
    if r.model or r.top != 123:  # '{'
        return None
    if r.edits:
        src = _rewrite(p, n, _EXPECT_RESULT, r, 0)
    else:
        src = PyBytes_FromStringAndSize(<const char *>p, n)
    found = _rmcp_items(<unsigned char *>PyBytes_AS_STRING(src), PyBytes_GET_SIZE(src),
                        &_RULES[_EXPECT_RESULT], &_ITEM_RULES)
    if found == _ITEMS_REJECT:
        raise rejection(body, tag, _EXPECT_RESULT, _NO_VARIANT, None, None, None, r.edits == 0,
                        parsed=True)
    if found != _ITEMS_READ:
        return None
    _count(_READS)
    failed = None
    try:
        return _result(_result_decoder(src), tag)
    except _ValidationError as exc:
        failed = detached(exc)
    except FrameBodyError as exc:  # an item neither text nor blob
        failed = detached(exc)
    except _DECODE_ERRORS:  # what the scan leaves to msgspec (a raw control character)
        pass
    # Outside the except blocks: no exception keeps this frame alive through a cycle.
    raise rejection(body, tag, _EXPECT_RESULT, None, None, None, failed, r.edits == 0,
                    parsed=True)
