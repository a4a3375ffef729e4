# Included by _frames_c.pyx, after _check_plans.pxi: struct fields read at their member
# slots, and decoded wire results made the public ReadResourceResult (in place when it
# can be): the compiled copies of _exact.rmcp_result's two rules, which a test holds
# equal to them on generated items; and the list-changed and cancelled notifications read
# without their ``__post_init__``, its rule applied in C (``_public_notification``), made
# public in place.

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


cdef bint _same_fields(object wire, object public):
    """Whether the msgspec structs ``wire`` and ``public`` have the same fields, names,
    defaults and options, each field in the same slot (``_set_type`` may then make one
    an instance of the other)."""
    if (wire.__struct_fields__ != public.__struct_fields__
            or wire.__struct_encode_fields__ != public.__struct_encode_fields__
            or wire.__struct_defaults__ != public.__struct_defaults__
            or wire.__basicsize__ != public.__basicsize__):
        return False
    options = [k for k in dir(public.__struct_config__) if not k.startswith("_")]
    if any(getattr(wire.__struct_config__, k) != getattr(public.__struct_config__, k)
           for k in options):
        return False
    try:
        return all(_slot_offset(wire, name) == _slot_offset(public, name)
                   for name in public.__struct_fields__)
    except ImportError:
        return False


cdef bint _retyped_equal(object wire, bytes sample, object expected):
    """Whether ``sample`` read as ``wire`` and made ``type(expected)`` by CPython's own
    ``__class__`` assignment (which checks the layout) equals ``expected``."""
    value = msgspec.json.decode(sample, type=wire)
    try:
        value.__class__ = type(expected)
    except TypeError:
        return False
    return value == expected


cdef bint _same_layout(object wire, object public):
    """Whether an instance of the msgspec struct ``wire`` made an instance of ``public``
    (``_set_type``) is the ``public`` value of the same fields: ``_same_fields``, no
    ``__post_init__`` on ``public``, and CPython's own ``__class__`` assignment accepts
    the change."""
    return (_same_fields(wire, public) and not hasattr(public, "__post_init__")
            and _retyped_equal(wire, b'{"contents":[]}', public(contents=[])))


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


# ------------------------------------------------ notifications without __post_init__

cdef object _NotificationParams = t.NotificationParams
cdef object _CancelledParams = t.CancelledNotificationParam
cdef Py_ssize_t _LIST_PARAMS_AT = _slot_offset(t._ListChanged, "params")
cdef Py_ssize_t _PARAMS_META_AT = _slot_offset(_NotificationParams, "meta")
cdef Py_ssize_t _CANCELLED_PARAMS_AT = _slot_offset(t.CancelledNotification, "params")


cdef bint _same_notification(object wire, object public):
    """Whether a wire class of ``w.NOTIFICATION_PUBLIC`` made ``public`` after the rule
    ``_public_notification`` applies is the public notification of the same frame:
    ``_same_fields``, and the rule the public ``__post_init__`` applies is the only one
    it has (list-changed: ``params`` with ``_meta`` kept, without it dropped; cancelled:
    no params made empty ones)."""
    if not _same_fields(wire, public):
        return False
    post_init = getattr(public, "__post_init__", None)
    tag = public.__struct_config__.tag.encode()
    if issubclass(public, t._ListChanged):
        kept = public(params=_NotificationParams(meta={}))
        return (post_init is vars(t._ListChanged)["__post_init__"]
                and kept.params is not None and public(params=_NotificationParams()).params is None
                and _retyped_equal(wire, b'{"method":"%s","params":{"_meta":{}}}' % tag, kept))
    kept = public(params=_CancelledParams(reason="r"))
    return (post_init is vars(t.CancelledNotification)["__post_init__"]
            and public().params == _CancelledParams() and kept.params.reason == "r"
            and _retyped_equal(wire, b'{"method":"%s","params":{"reason":"r"}}' % tag, kept))


#: The wire classes of ``w.NOTIFICATION_PUBLIC`` and their public ones, in its order.
cdef object _RESOURCES_WIRE, _TOOLS_WIRE, _PROMPTS_WIRE, _CANCELLED_WIRE
cdef object _RESOURCES, _TOOLS, _PROMPTS, _CANCELLED
((_RESOURCES_WIRE, _RESOURCES), (_TOOLS_WIRE, _TOOLS), (_PROMPTS_WIRE, _PROMPTS),
 (_CANCELLED_WIRE, _CANCELLED)) = w.NOTIFICATION_PUBLIC.items()


# ------------------------------- notifications whose params run a __post_init__

cdef enum:
    _MAX_TWINS = 4          # the classes of w.PARAMS_TWIN_PUBLIC
    _MAX_TWIN_FIELDS = 16   # the fields of one's params
    _PAYLOADS = 3           # DetailedTaskNotificationParams._PAYLOAD's members

cdef struct _params_twin:
    PyObject *wire          # the wire class (w.PARAMS_TWIN_PUBLIC keeps it and the rest)
    PyObject *public        # its public class
    PyObject *params        # the public class of its params
    Py_ssize_t params_at    # the notification's params slot
    Py_ssize_t null_at      # a slot whose null is made absent (UNSET: _meta), or -1
    Py_ssize_t unset_at     # a slot whose UNSET is made None (ttl_ms), or -1
    Py_ssize_t status_at    # the slot of the status that wants a payload member, or -1
    Py_ssize_t payload_at[_PAYLOADS]      # the payload members' slots
    PyObject *payload_status[_PAYLOADS]   # the status that wants each (_TWIN_KEPT)
    Py_ssize_t count        # the params' fields
    Py_ssize_t at[_MAX_TWIN_FIELDS]       # their slots

cdef _params_twin _TWINS[_MAX_TWINS]
cdef Py_ssize_t _N_TWINS = 0
cdef list _TWIN_KEPT = []
cdef object _U64_MAX = t._U64_MAX
cdef object _UNSET = msgspec.UNSET
#: The ``__post_init__`` of each params class whose rules ``_public_params`` applies:
#: ``_ExactParams``' makes ``"_meta": null`` absent (and TaskStatusNotificationParams'
#: refuses an integer past ``u64``, as DetailedTaskNotificationParams' does, which also
#: makes an absent ``ttl_ms`` None and wants the payload member of its status alone).
cdef object _EXACT_POST_INIT = vars(t._ExactParams)["__post_init__"]
cdef object _TASK_STATUS_POST_INIT = vars(t.TaskStatusNotificationParams)["__post_init__"]
cdef object _DETAILED_TASK_POST_INIT = vars(t.DetailedTaskNotificationParams)["__post_init__"]
#: Bodies of each class's params, for the check at import: each read both ways must be
#: equal where ``_public_params`` makes it public, and it must make the first.
cdef dict _TWIN_SAMPLES = {
    t.TaskStatusNotification: (
        b'{"_meta":null,"createdAt":"a","lastUpdatedAt":"b","pollInterval":'
        b'18446744073709551615,"status":"working","taskId":"c","ttl":null}',
        b'{"createdAt":"a","lastUpdatedAt":"b","status":"working","taskId":"c",'
        b'"ttl":18446744073709551616}'),
    t.ElicitationCompleteNotification: (b'{"_meta":null,"elicitationId":"e"}',),
    t.TasksNotification: (
        b'{"createdAt":"a","lastUpdatedAt":"b","result":{},"status":"completed",'
        b'"taskId":"c"}',
        b'{"createdAt":"a","error":{},"lastUpdatedAt":"b","status":"working","taskId":"c",'
        b'"ttlMs":1}',
        b'{"createdAt":"a","lastUpdatedAt":"b","status":"failed","taskId":"c","ttlMs":1}'),
}


cdef inline void _put(object obj, Py_ssize_t at, object value):
    """The struct field at the member slot ``at`` of ``obj`` set to ``value``."""
    Py_INCREF(<PyObject *>value)
    Py_XDECREF(_member_swap(obj, at, <PyObject *>value))


cdef object _public_params(object value, Py_ssize_t i):
    """The public notification of a wire value of ``w.PARAMS_TWIN_PUBLIC`` just decoded
    (``_TWINS[i]``'s), or None when its public class must decide.

    The rules of its params' ``__post_init__`` here in C: ``"_meta": null`` made absent
    (``UNSET``), an absent ``ttl_ms`` made None. What that ``__post_init__`` refuses or
    changes otherwise (an integer past ``u64``; a task's payload member missing for its
    status, or one there for another), and a value held elsewhere, are left to the
    public class. Then the params and the notification made public in place (the same
    fields and layout: ``_NOTIFICATION_RETYPE``, checked at import)."""
    cdef _params_twin *x = &_TWINS[i]
    cdef PyObject *params = _member(value, x.params_at)
    cdef PyObject *member
    cdef Py_ssize_t j
    if Py_REFCNT(<PyObject *>value) != 1 or params == NULL or Py_REFCNT(params) != 1:
        return None
    for j in range(x.count):
        member = _member(<object>params, x.at[j])
        if member != NULL and PyLong_CheckExact(<object>member) and <object>member > _U64_MAX:
            return None
    if x.status_at >= 0:
        status = <object>_member(<object>params, x.status_at)
        for j in range(_PAYLOADS):
            if ((_member(<object>params, x.payload_at[j]) == <PyObject *>None)
                    == (status == <object>x.payload_status[j])):
                return None  # wanted and missing, or there and not wanted
    if x.null_at >= 0 and _member(<object>params, x.null_at) == <PyObject *>None:
        _put(<object>params, x.null_at, _UNSET)
    if x.unset_at >= 0 and _member(<object>params, x.unset_at) == <PyObject *>_UNSET:
        _put(<object>params, x.unset_at, None)
    _set_type(<object>params, <object>x.params)
    _set_type(value, <object>x.public)
    return value


cdef bint _twin_ready(object wire, object public) except -1:
    """Take the wire class ``wire`` of ``w.PARAMS_TWIN_PUBLIC`` and its ``public`` class
    into ``_TWINS``; whether ``_public_params`` makes its values the public ones: the same
    fields at both levels (``_same_fields``), no ``__post_init__`` but the params', one
    of those whose rules it applies, and the samples read both ways equal."""
    global _N_TWINS
    cdef _params_twin *x
    params_wire = msgspec.structs.fields(wire)[0].type
    params = msgspec.structs.fields(public)[0].type
    post_init = getattr(params, "__post_init__", None)
    if (_N_TWINS == _MAX_TWINS or len(params.__struct_fields__) > _MAX_TWIN_FIELDS
            or public not in _TWIN_SAMPLES):
        return False
    x = &_TWINS[_N_TWINS]
    x.wire, x.public, x.params = <PyObject *>wire, <PyObject *>public, <PyObject *>params
    x.params_at = _slot_offset(public, "params")
    x.null_at = x.unset_at = x.status_at = -1
    if post_init is _EXACT_POST_INIT or post_init is _TASK_STATUS_POST_INIT:
        x.null_at = _slot_offset(params, "meta")
    elif post_init is _DETAILED_TASK_POST_INIT and len(params._PAYLOAD) == _PAYLOADS:
        x.unset_at = _slot_offset(params, "ttl_ms")
        x.status_at = _slot_offset(params, "status")
        for j, (status, name) in enumerate(params._PAYLOAD.items()):
            _TWIN_KEPT.append(status)
            x.payload_status[j] = <PyObject *>status
            x.payload_at[j] = _slot_offset(params, name)
    else:
        return False
    x.count = len(params.__struct_fields__)
    for j, name in enumerate(params.__struct_fields__):
        x.at[j] = _slot_offset(params, name)
    _N_TWINS += 1
    if not (_same_fields(wire, public) and _same_fields(params_wire, params)
            and not hasattr(public, "__post_init__")):
        return False
    tag = public.__struct_config__.tag.encode()
    for k, sample in enumerate(_TWIN_SAMPLES[public]):
        body = b'{"method":"%s","params":%s}' % (tag, sample)
        made = _public_params(msgspec.json.decode(body, type=wire), _N_TWINS - 1)
        if made is None and k == 0:
            return False
        try:
            expected = msgspec.json.decode(body, type=public)
        except msgspec.ValidationError:
            expected = None
        if made is not None and not (type(made) is public and made == expected):
            return False
    return True


#: Whether notifications are read with ``notification_wire_decoder`` and its wire values
#: made public by ``_public_notification`` and ``_public_params`` (else with the public
#: decoder).
cdef bint _NOTIFICATION_RETYPE = all([
    _same_notification(wire, public) for wire, public in w.NOTIFICATION_PUBLIC.items()
]) and all([_twin_ready(wire, public) for wire, public in w.PARAMS_TWIN_PUBLIC.items()])
NOTIFICATION_RETYPE = _NOTIFICATION_RETYPE  # for the tests
if _NOTIFICATION_RETYPE:
    _method_init(&_DECODERS[_D_NOTIFICATION], w.notification_wire_decoder.decode)
# One decoder per typed method (in _METHODS' order), of the same classes as the union's.
cdef df_method _METHOD_DECODERS[_MAX_TYPED]
for _i, _d in enumerate(w.notification_method_wire_decoders if _NOTIFICATION_RETYPE
                        else w.notification_method_decoders):
    _method_init(&_METHOD_DECODERS[_i], _d.decode)
METHOD_FAST_CALLS = all([_method_fast(&_METHOD_DECODERS[_i]) for _i in range(_N_METHODS)])


cdef object _public_notification(object value, object public):
    """The public notification of a wire value of ``w.NOTIFICATION_PUBLIC`` just decoded.

    The rule the public ``__post_init__`` applies, applied here in C (list-changed:
    ``params`` without ``_meta`` dropped; cancelled: no params made empty ones); then
    the same object made ``public`` in place (the same fields and layout:
    ``_NOTIFICATION_RETYPE``, checked at import)."""
    cdef PyObject *params
    if Py_REFCNT(<PyObject *>value) != 1:  # (held elsewhere: rebuilt, the rule in Python)
        return public(params=value.params)
    if public is _CANCELLED:
        if _member(value, _CANCELLED_PARAMS_AT) == <PyObject *>None:
            value.params = _CancelledParams()
    else:
        params = _member(value, _LIST_PARAMS_AT)
        if (params != NULL and params != <PyObject *>None
                and _member(<object>params, _PARAMS_META_AT) == <PyObject *>None):
            value.params = None
    _set_type(value, public)
    return value


cdef inline object _notification_decoder(object body, int method):
    """``body`` read as a typed notification, one read as a wire twin made public here:
    as the class of the typed method ``method`` (an index of ``_METHODS``: the body's
    method, found as its first key), or, ``method`` < 0, as the union of them all."""
    if method >= 0:
        value = _call1(&_METHOD_DECODERS[method], body)
    else:
        value = _decode(_D_NOTIFICATION, body)
    cls = type(value)
    if cls is _TOOLS_WIRE:
        return _public_notification(value, _TOOLS)
    if cls is _RESOURCES_WIRE:
        return _public_notification(value, _RESOURCES)
    if cls is _PROMPTS_WIRE:
        return _public_notification(value, _PROMPTS)
    if cls is _CANCELLED_WIRE:
        return _public_notification(value, _CANCELLED)
    for i in range(_N_TWINS):
        if cls is <object>_TWINS[i].wire:
            public = _public_params(value, i)
            if public is None:  # the public class decides, errors included
                return (w.notification_method_decoders[method].decode(body) if method >= 0
                        else w.notification_decoder.decode(body))
            return public
    return value


def _typed_notification(body, int method=-1):
    """For the tests: the notification ``body`` (its JSON) read by the typed decoders
    alone and made public, with no pre-check or exact reading before them (which send
    some bodies elsewhere): as the class of ``method`` (an index of
    ``w.TYPED_METHODS``), or -1, the union. What the public classes' decoders give, for
    a body the pre-check lets through to them (valid JSON, no key repeated): a params
    twin reads on past where its public class's ``__post_init__`` would stop, so a
    repeated ``params`` or a syntax error after it is met where the public decoder raises
    first."""
    if not -1 <= method < _N_METHODS:
        raise ValueError(f"no typed method {method}")
    return _notification_decoder(body, method)
