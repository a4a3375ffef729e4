# cython: language_level=3
# cython: freethreading_compatible=True, embedsignature=True, embedsignature.format=clinic
"""The channels' sequence rules compiled: the twin of ``_channel_py.py``.

The same classes, methods, events, states and errors, docstrings included (both pass
the same tests); :mod:`diverge_frames.channel` documents them and picks one. What only
this twin does, all for speed and none visible:

* the state is a C int, the index of its ``ChannelState`` member (in the order
  ``_events`` defines, which a test holds ``STATE_INDEXES`` to); ``state`` gives the
  member;
* both kinds share one ``_take``, the rules of ``receive_value``, told apart by
  ``_one_shot``;
* "an ``ErrorData``" is C's type check (the type or a subclass), not ``isinstance``:
  the same answer without the lookup of ``__instancecheck__`` on msgspec's metaclass;
* an event is built without its dataclass ``__init__`` frame or an attribute lookup
  (``df_event`` in ``_channel.h``, its field stored in its slot): the same object;
* a notification channel keeps the two ``Notification`` events it returned last and
  gives one out again, holding the new value (``df_refill``), once nothing but the
  channel holds it (its reference count says so), as CPython's ``zip`` reuses its
  result tuple: no one can see the change, and the event costs no allocation (a loop
  holds the last event while it receives the next, so the one before is the free
  one). The two are dropped when no notification may follow (an error, the end); a
  free-threaded build, where a reference count is no such proof, builds each anew;
* ``values()`` returns an iterator object of its own (``_Values``), not a generator;
* where the pure twin takes its lock, this one enters a critical section on the
  channel (``cython.critical_section``: the object's own mutex on a free-threaded
  build, nothing at all where the GIL already makes the few C lines inside atomic).
"""

cimport cython
from cpython.object cimport PyObject_TypeCheck, PyTypeObject
from cpython.ref cimport Py_REFCNT

from . import notifications as _notifications
from . import read_resource as _read_resource
from ._events import (ABORTED, FINISHED, NOT_SERVED, ChannelState, Error, Notification, Result,
                      already_ended, limited, refused)
from .types import ErrorData

cdef extern from "_channel.h":
    Py_ssize_t df_slot_offset(object cls, object descr) except -1
    object df_event(object cls, Py_ssize_t offset, object value)
    void df_refill(object event, Py_ssize_t offset, object value)
    const bint DF_EVENT_REUSE

# The states, as indexes into _STATES (the order of ChannelState's members).
cdef enum:
    _OPEN = 0
    _ANSWERED = 1
    _ERRORED = 2
    _FINISHED = 3  # this one and the two after it are the ends
    _NOT_SERVED = 4
    _ABORTED = 5

#: ``ChannelState`` members by index: ``_STATES[_OPEN] is ChannelState.OPEN`` ...
cdef tuple _STATES = tuple(ChannelState)
#: The C constants by member name, for the test that holds them to ``ChannelState``.
STATE_INDEXES = {
    "OPEN": _OPEN,
    "ANSWERED": _ANSWERED,
    "ERRORED": _ERRORED,
    "FINISHED": _FINISHED,
    "NOT_SERVED": _NOT_SERVED,
    "ABORTED": _ABORTED,
}

#: What ``next(source, _END)`` returns at the end of a ``values()`` source.
cdef object _END = object()
cdef object _ERROR_DATA = ErrorData  # a class (msgspec.Struct's metaclass)
# Where each event's one field lives (ImportError here if it is not a plain slot).
cdef Py_ssize_t _NOTIFICATION_VALUE = df_slot_offset(Notification, vars(Notification)["value"])
cdef Py_ssize_t _RESULT_VALUE = df_slot_offset(Result, vars(Result)["value"])
cdef Py_ssize_t _ERROR_ERROR = df_slot_offset(Error, vars(Error)["error"])
cdef str _NOTIFICATION_RESPONSE = "a notification channel response"
cdef str _READ_RESOURCE_RESPONSE = "a read-resource channel response"


cdef class _Channel:
    """State shared by both channel kinds: the state, the count of responses and the
    two ways to end."""

    cdef object _decode
    cdef int _state
    cdef Py_ssize_t _received
    cdef bint _one_shot
    # The two Notification events receive returned last, kept to be reused once no
    # one else holds them (a loop holds the last while it receives the next, so the
    # one before is free by then); dropped when no more can come.
    cdef object _last
    cdef object _before

    @property
    def state(self):
        """The channel's :class:`ChannelState`."""
        cdef int state
        with cython.critical_section(self):
            state = self._state
        return _STATES[state]

    @property
    def received(self):
        """How many responses the channel has taken (an ``int``).

        Each payload ``receive``, ``receive_value`` or a step of ``values()`` decoded
        and accepted counts once: a notification, the error, the one-shot's response. A
        refused call (``SequenceError``) and a payload that does not decode do not.
        """
        cdef Py_ssize_t received
        with cython.critical_section(self):
            received = self._received
        return received

    def finish(self):
        """Record the channel response finish (the connection closed cleanly).

        Returns :class:`NotServed` when no response preceded it, else
        :class:`Finished`. Raises :class:`~diverge_frames.errors.SequenceError` when
        the channel already ended (a finish twice, a finish after an abort).
        """
        cdef int state, ended = _FINISHED
        with cython.critical_section(self):
            state = self._state
            if state < _FINISHED:
                if self._received == 0:
                    ended = _NOT_SERVED
                self._state = ended
        if state >= _FINISHED:
            raise already_ended("finish", _STATES[state])
        if DF_EVENT_REUSE and self._last is not None:  # a notification channel's kept events
            self._last = self._before = None
        return FINISHED if ended == _FINISHED else NOT_SERVED

    def abort(self):
        """Record an abrupt end: the connection dropped or a frame was cut short.

        Allowed in any state that has not ended (including after the error, when only
        the finish was missing). Raises :class:`~diverge_frames.errors.SequenceError`
        when the channel already ended.
        """
        cdef int state
        with cython.critical_section(self):
            state = self._state
            if state < _FINISHED:
                self._state = _ABORTED
        if state >= _FINISHED:
            raise already_ended("abort", _STATES[state])
        if DF_EVENT_REUSE and self._last is not None:  # a notification channel's kept events
            self._last = self._before = None
        return ABORTED

    cdef object _take(self, object payload, bint *errored):
        # The rules of receive_value, for both kinds; *errored: the value is an
        # ErrorData (what receive's event is judged by, not the state another thread
        # may have changed since).
        cdef int state
        cdef bint error
        with cython.critical_section(self):
            state = self._state
        if state == _OPEN:
            value = self._decode(payload)
            error = PyObject_TypeCheck(value, <PyTypeObject *>_ERROR_DATA)  # isinstance, sans hooks
            with cython.critical_section(self):  # the state again: another thread's?
                state = self._state
                if state == _OPEN:
                    self._received += 1
                    if error:
                        self._state = _ERRORED
                    elif self._one_shot:
                        self._state = _ANSWERED
            if state == _OPEN:
                errored[0] = error
                if DF_EVENT_REUSE and error:
                    self._last = self._before = None  # no notification may follow
                return value
        raise refused(
            _READ_RESOURCE_RESPONSE if self._one_shot else _NOTIFICATION_RESPONSE, _STATES[state]
        )

    cdef _Values _values(self, object payloads):
        cdef _Values it = _Values.__new__(_Values)
        it._source = iter(payloads)
        it._channel = self
        return it

    def __repr__(self):
        cdef int state
        cdef Py_ssize_t received
        with cython.critical_section(self):
            state, received = self._state, self._received
        return f"{type(self).__name__}(state={_STATES[state].name}, received={received})"

    def __reduce__(self):
        # A pickle or copy: the rules' state, without the events kept for reuse.
        cdef int state
        cdef Py_ssize_t received
        with cython.critical_section(self):
            state, received = self._state, self._received
        made = (type(self), self._decode, state, received, self._one_shot)
        return _rebuilt, made, getattr(self, "__dict__", None)


cdef class NotificationChannel(_Channel):
    # The first two lines: the signature, for inspect (a compiled class has no other).
    """NotificationChannel(decode=None, *, max_payload_size=None)
--

The notification channel (kind 4, ``/mcp/notifications/{channel}``).

    Zero or more notifications, an error only as the last response, then the finish.
    ``decode`` turns one payload into a notification or an ``ErrorData``; it defaults
    to :func:`diverge_frames.notifications.decode` (pass
    ``_frames_py.decode_notification`` to pin the pure-Python twin).
    ``max_payload_size``: payloads longer than this many bytes are refused with
    :class:`~diverge_frames.errors.PayloadTooLargeError` before they are read (none by
    default, as rmcp has none); see :func:`diverge_frames._events.limited`.

    One channel may be fed from several threads: each call takes effect at once, as
    if the calls ran one after another (the decodes themselves run in parallel), so
    the rules hold whatever the order; a ``values()`` iterator is for one thread at
    a time, as a generator is.
    """

    def __init__(self, decode=None, *, max_payload_size=None):
        self._decode = limited(_notifications.decode if decode is None else decode,
                               max_payload_size)
        self._state = _OPEN
        self._received = 0
        self._one_shot = False

    def receive(self, payload):
        """Take one channel response payload (``bytes``/``bytearray``/``memoryview``).

        Returns :class:`Notification` (tag 0) or :class:`Error` (tag 1, after which the
        state is ``ERRORED`` and only the finish may follow).

        Raises :class:`~diverge_frames.errors.SequenceError` when the channel is not
        ``OPEN`` (nothing is decoded then), or the payload's ``FrameError``
        (``EmptyFrameError``, ``UnknownTagError``, ``FrameBodyError``); either way the
        state is unchanged.
        """
        cdef bint errored
        value = self._take(payload, &errored)
        if errored:
            return df_event(Error, _ERROR_ERROR, value)
        if DF_EVENT_REUSE:
            event = self._before
            if event is not None and Py_REFCNT(event) == 2:  # self._before and event
                df_refill(event, _NOTIFICATION_VALUE, value)  # held by no one else: unseen
            else:
                event = df_event(Notification, _NOTIFICATION_VALUE, value)
            self._before = self._last
            self._last = event
            return event
        return df_event(Notification, _NOTIFICATION_VALUE, value)

    def receive_value(self, payload):
        """:meth:`receive`, returning the decoded value rather than an event.

        The same rules, state changes and errors; returns the notification (the
        ``value`` of the :class:`Notification` event) or the ``ErrorData`` (the
        ``error`` of the :class:`Error` event, after which the state is ``ERRORED``).
        """
        cdef bint errored
        return self._take(payload, &errored)

    def values(self, payloads):
        """:meth:`receive_value` over ``payloads``, one as each value is asked for.

        Yields each payload's value in order (the ``ErrorData``, if one comes, last:
        a payload after it raises ``SequenceError``). The first payload that raises
        ends the iterator with that error, the state unchanged by that payload (the
        payloads before it were received); ``finish()`` stays the caller's.
        ``iter(payloads)`` is taken at once (``TypeError`` when not iterable).
        """
        return self._values(payloads)


cdef class OneShotChannel(_Channel):
    # The first two lines: the signature, for inspect (a compiled class has no other).
    """OneShotChannel(decode=None, *, max_payload_size=None)
--

A read-resource channel: exactly one response, then the finish.

    ``decode`` turns one payload into a ``ReadResourceResult`` or an ``ErrorData``; it
    defaults to :func:`diverge_frames.read_resource.decode`. ``max_payload_size``: as
    :class:`NotificationChannel`'s. Threads: as :class:`NotificationChannel`, so of
    responses fed at once from several threads exactly one is taken.
    """

    def __init__(self, decode=None, *, max_payload_size=None):
        self._decode = limited(_read_resource.decode if decode is None else decode,
                               max_payload_size)
        self._state = _OPEN
        self._received = 0
        self._one_shot = True

    def receive(self, payload):
        """Take the channel's one response payload.

        Returns :class:`Result` (tag 0; state ``ANSWERED``) or :class:`Error` (tag 1;
        state ``ERRORED``). Raises :class:`~diverge_frames.errors.SequenceError` for a
        second response or one after the end, or the payload's ``FrameError``; either
        way the state is unchanged.
        """
        cdef bint errored
        value = self._take(payload, &errored)
        if errored:
            return df_event(Error, _ERROR_ERROR, value)
        return df_event(Result, _RESULT_VALUE, value)

    def receive_value(self, payload):
        """:meth:`receive`, returning the decoded value rather than an event.

        The value is the ``ReadResourceResult`` (state ``ANSWERED``) or the ``ErrorData`` (state
        ``ERRORED``). The same rules, state changes and errors."""
        cdef bint errored
        return self._take(payload, &errored)

    def values(self, payloads):
        """:meth:`receive_value` over ``payloads``, one as each value is asked for.

        Yields the one response's value, then raises ``SequenceError`` if another payload
        follows. The first payload that raises ends the iterator with that error."""
        return self._values(payloads)


def _rebuilt(cls, decode, int state, Py_ssize_t received, bint one_shot):
    """The channel a pickle or copy of one (``_Channel.__reduce__``) holds."""
    if not _OPEN <= state <= _ABORTED:
        raise ValueError(f"not a channel state: {state}")
    cdef _Channel channel = cls.__new__(cls)
    channel._decode = decode
    channel._state = state
    channel._received = received
    channel._one_shot = one_shot
    return channel


@cython.auto_pickle(False)  # as the pure twin's generator: not picklable
cdef class _Values:
    """What ``values()`` returns: the channel's rules over each payload as it is asked
    for. After a payload raises (or the source does) it is exhausted, as the pure
    twin's generator is; a ``next()`` while another is running (from another thread,
    or from the source itself) raises ``ValueError``, as the generator's does."""

    cdef object _source
    cdef _Channel _channel
    cdef bint _done
    cdef bint _running

    def __iter__(self):
        return self

    def __next__(self):
        cdef bint running, errored
        with cython.critical_section(self):
            running = self._running
            self._running = True
        if running:
            raise ValueError("generator already executing")
        try:
            if not self._done:
                payload = next(self._source, _END)  # the end without a StopIteration object
                if payload is not _END:
                    return self._channel._take(payload, &errored)
        except BaseException:
            self._done = True
            raise
        finally:
            with cython.critical_section(self):
                self._running = False
        self._done = True
        raise StopIteration
