# Included by _frames_c.pyx, after _check_plans.pxi: struct fields read at their member
# slots, and decoded wire results made the public ReadResourceResult (in place when it
# can be): the compiled copies of _exact.rmcp_result's two rules, which a test holds
# equal to them on generated items.

cdef inline object _field(object value, Py_ssize_t at):
    """The struct field of ``value`` in its member slot at ``at`` (``_slot_offset``), as
    its attribute reads it; AttributeError when unset."""
    cdef PyObject *v = _member(value, at)
    if v == NULL:
        raise AttributeError("unset struct field")
    return <object>v


cdef inline object _get(object value, Py_ssize_t at, str name):
    """``getattr(value, name)`` for a field ``name`` at the member slot ``at``: read there
    while a GIL keeps the value from changing under it (a value of the exact class
    ``at`` was taken from)."""
    if _GIL_DISABLED:
        return getattr(value, name)
    return _field(value, at)


cdef bint _same_layout(object wire, object public):
    """Whether an instance of the msgspec struct ``wire`` made an instance of ``public``
    (``_set_type``) is the ``public`` value of the same fields: the same fields, names,
    defaults and options, each field in the same slot, and CPython's own ``__class__``
    assignment accepts the change."""
    if (wire.__struct_fields__ != public.__struct_fields__
            or wire.__struct_encode_fields__ != public.__struct_encode_fields__
            or wire.__struct_defaults__ != public.__struct_defaults__
            or wire.__basicsize__ != public.__basicsize__
            or hasattr(public, "__post_init__")):
        return False
    options = [k for k in dir(public.__struct_config__) if not k.startswith("_")]
    if any(getattr(wire.__struct_config__, k) != getattr(public.__struct_config__, k)
           for k in options):
        return False
    try:
        if any(_slot_offset(wire, name) != _slot_offset(public, name)
               for name in public.__struct_fields__):
            return False
    except ImportError:
        return False
    sample = msgspec.json.decode(b'{"contents":[]}', type=wire)
    try:
        sample.__class__ = public
    except TypeError:
        return False
    return sample == public(contents=[])


#: Whether a decoded all-text or all-blob wire result is made the public one in place
#: (``_as_public``) rather than rebuilt.
cdef bint _RETYPE = (_same_layout(w.TextReadResourceResultWire, _Result)
                     and _same_layout(w.BlobReadResourceResultWire, _Result))
RETYPE = _RETYPE  # for the tests
cdef Py_ssize_t _TTL_MS_AT = _slot_offset(_Result, "ttl_ms")
cdef Py_ssize_t _PARAMS_AT = _slot_offset(_Custom, "params")
cdef Py_ssize_t _CONTENTS_AT = _slot_offset(_Result, "contents")
cdef Py_ssize_t _TEXT_AT = _slot_offset(_Text, "text")
cdef Py_ssize_t _BLOB_AT = _slot_offset(_Blob, "blob")
cdef Py_ssize_t _WIRE_TEXT_AT = _slot_offset(w.ResourceContentsWire, "text")
cdef Py_ssize_t _WIRE_BLOB_AT = _slot_offset(w.ResourceContentsWire, "blob")


cdef object _as_public(object value):
    """The public ReadResourceResult of a ``TextReadResourceResultWire`` or
    ``BlobReadResourceResultWire`` just decoded (its items already public): the same
    object, its class made ``ReadResourceResult`` (the same fields, defaults and layout:
    ``_RETYPE``, checked at import), with rmcp's ``ttlMs`` clamp to 0."""
    cdef PyObject *ttl_ms
    if not _RETYPE or Py_REFCNT(<PyObject *>value) != 1:  # (one held elsewhere: rebuilt)
        return _public_result(value, value.contents)
    _set_type(value, _Result)
    ttl_ms = _member(value, _TTL_MS_AT)
    if ttl_ms != NULL and ttl_ms != <PyObject *>None and <object>ttl_ms < 0:
        value.ttl_ms = 0
    return value


cdef object _result(object wire, int tag):
    """The public ReadResourceResult of a decoded ``ReadResourceResultWire``.

    rmcp's untagged ``ResourceContents``, text when ``text`` is a string, else blob when
    ``blob`` is (the compiled copy of ``_exact.rmcp_result.public_item``); rmcp's
    ``ttlMs`` clamp to 0. Each item is made public in its place in the wire's list (the
    wire item freed as its public one takes its place), which becomes the result's.
    """
    cdef list contents = wire.contents
    cdef Py_ssize_t index
    for index in range(len(contents)):  # first the rule: nothing built for a rejection
        item = contents[index]
        if (type(_get(item, _WIRE_TEXT_AT, "text")) is not str
                and type(_get(item, _WIRE_BLOB_AT, "blob")) is not str):
            raise FrameBodyError(tag, "ReadResourceResult", _NEITHER_TEXT_NOR_BLOB,
                                 f"$.contents[{index}]")
    for index in range(len(contents)):
        item = contents[index]
        text = _get(item, _WIRE_TEXT_AT, "text")
        if type(text) is str:
            contents[index] = _Text(uri=item.uri, mime_type=item.mime_type, text=text,
                                    meta=item.meta)
        else:
            contents[index] = _Blob(uri=item.uri, mime_type=item.mime_type, blob=item.blob,
                                    meta=item.meta)
    return _public_result(wire, contents)


cdef object _public_result(object wire, list contents):
    """The public ReadResourceResult of a decoded wire shape and its public ``contents``.

    rmcp's ``ttlMs`` clamp to 0: the compiled copy of ``_exact.rmcp_result.clamp_ttl_ms``.
    """
    ttl_ms = wire.ttl_ms
    if (ttl_ms is None and wire.result_type is None and wire.cache_scope is None
            and wire.meta is None):
        return _Result(contents=contents)
    if ttl_ms is not None and ttl_ms < 0:
        ttl_ms = 0
    return _Result(result_type=wire.result_type, ttl_ms=ttl_ms, cache_scope=wire.cache_scope,
                   contents=contents, meta=wire.meta)
