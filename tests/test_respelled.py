"""Bodies that differ from a plain one only by their numbers, their tail or a misfit member.

Each is generated at every position it can take, and both twins must give what the
reference reading gives (``rmcp_read.read_exactly`` without options: serde_json read token
by token, then rmcp's rules): the same value (``-0.0`` kept: compared by ``repr``), or the
same error and message. The pure twin takes none of them to its exact reading:

* a ``-0`` (or another number msgspec reads otherwise) anywhere: the body respelled
  (``_exact.serde_json_spelling``) and read by msgspec, the number's text inside a
  string or a key left as it is;
* more than whitespace after the value, a high byte too: msgspec words the rejection;
* a typed method whose params do not fit: the custom notification after the custom
  reading, unless serde's forms are in its params (``rmcp_custom.serde_forms``).
"""

from __future__ import annotations

from typing import Any

import helpers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diverge_frames import FrameError, _frames_py
from diverge_frames._exact import rejection, rmcp_read
from diverge_frames._exact.rmcp_structs import EXPECT_ERROR, EXPECT_NOTIFICATION, EXPECT_RESULT
from diverge_frames._exact.serde_json_spelling import respelled
from diverge_frames._stack import MSGSPEC_MESSAGE_OPENINGS as OPENINGS
from diverge_frames._stack import within_openings

#: Bodies with one ``@`` where a number goes: each position a number can take.
NUMBER_POSITIONS = [
    # free-form: ErrorData's data, custom params, _meta, a log's data
    (1, b'{"code":1,"message":"m","data":@}'),
    (1, b'{"code":1,"message":"m","data":[@]}'),
    (1, b'{"code":1,"message":"m","data":[{},[],@,"-",{"a":[[@]]}]}'),
    (1, b'{"code":1,"message":"m","data":{"a":{"b":@},"c":[@,@]}}'),
    (0, b'{"method":"x/y","params":{"a":@}}'),
    (0, b'{"method":"x/y","params":{"a":[@,{"b":@}],"_meta":{"c":@}}}'),
    (0, b'{"method":"notifications/message","params":{"level":"info","data":@}}'),
    (0, b'{"method":"notifications/message","params":{"level":"info","data":["a",@]}}'),
    (0, b'{"method":"notifications/message","params":{"level":"info","data":1,"_meta":{"a":@}}}'),
    # typed members
    (1, b'{"code":@,"message":"m"}'),
    (0, b'{"method":"notifications/progress","params":{"progressToken":1,"progress":@}}'),
    (0, b'{"method":"notifications/progress","params":{"progressToken":@,"progress":1}}'),
    (0, b'{"method":"notifications/progress","params":{"progressToken":1,"progress":1,"total":@}}'),
    (0, b'{"method":"notifications/cancelled","params":{"requestId":@}}'),
    (2, b'{"contents":[{"uri":"u","text":"t"}],"ttlMs":@}'),
    (2, b'{"contents":[{"uri":"u","text":"t","_meta":{"a":@}}]}'),
    (2, b'{"contents":[{"uri":"u","text":@}]}'),
    # a struct member that is skipped (ErrorData reads its own members only)
    (1, b'{"code":1,"message":"m","x":[@]}'),
]
#: Numbers msgspec reads otherwise than serde_json, beside a plain one.
NUMBERS = [b"-0", b"-0 ", b"123456789012345678901234", b"1.5e300", b"0.30000000000000004", b"7"]
#: What may follow a whole value.
TAILS = [b"x", b" x", b"\xff", b" \xe9", b"\x80", b"{}", b"]", b",", b"\x00", b"\n1", b'"s"']
#: Bodies of a typed method with one member of the wrong type (or value).
MISFITS = [
    b'{"method":"notifications/message","params":{"level":"bogus","data":1}}',
    b'{"method":"notifications/message","params":{"data":[1,2],"level":7}}',
    b'{"method":"notifications/message","params":{"level":"info","data":1,"logger":5}}',
    b'{"method":"notifications/progress","params":{"progressToken":1,"progress":"half"}}',
    b'{"method":"notifications/progress","params":{"progressToken":1.5,"progress":1}}',
    b'{"method":"notifications/progress","params":{"progressToken":1,"progress":1,"total":[]}}',
    b'{"method":"notifications/progress","params":{"progressToken":1,"progress":-0}}',
    b'{"method":"notifications/cancelled","params":{"requestId":{}}}',
    b'{"method":"notifications/resources/updated","params":{"uri":null}}',
    b'{"method":"notifications/message","params":{"level":"info","data":-0,"logger":1},"x":-0}',
    b'{"method":"notifications/message","params":{"level":"info","data":1,"_meta":"m"}}',
    # serde's forms, which rmcp reads as the typed variant (the exact reading decides)
    b'{"method":"notifications/message","params":{"level":{"info":null},"data":1}}',
    b'{"method":"notifications/message","params":{"level":{"info":{}},"data":1,"x":1}}',
]
_EXPECTED = {0: EXPECT_NOTIFICATION, 1: EXPECT_ERROR, 2: EXPECT_RESULT}


def _payload(tag: int, body: bytes) -> bytes:
    return bytes((1 if tag == 1 else 0,)) + body


def _channel(tag: int) -> str:
    return "read-resource" if tag == 2 else "notifications"


def _reference(tag: int, body: bytes) -> Any:
    try:
        return rmcp_read.read_exactly(body, 1 if tag == 1 else 0, _EXPECTED[tag])
    except FrameError as exc:
        return exc


def _said(value: Any) -> str:
    """A value by its ``repr`` (``-0.0`` is not ``0.0``), an error by class and message."""
    if isinstance(value, FrameError):
        return f"{type(value).__name__}: {value}"
    return repr(value)


@pytest.fixture
def exact_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How often the pure twin reads a body exactly (``rmcp_read.read``)."""
    calls: list[int] = []
    read = rmcp_read.read

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return read(*args, **kwargs)

    monkeypatch.setattr(rmcp_read, "read", counted)
    return calls


def _check(twins: Any, tag: int, body: bytes) -> str:
    """Both twins give the reference's outcome for ``body``; returns it."""
    want = _said(_reference(tag, body))
    for frames in twins:
        got = _said(helpers.outcome(helpers.decoder(frames, _channel(tag)), _payload(tag, body)))
        assert got == want, (frames.__name__, body)
    return want


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize(("tag", "template"), NUMBER_POSITIONS)
def test_a_number_anywhere_reads_as_serde_reads_it(
    twins: Any, exact_reads: list[int], tag: int, template: bytes, number: bytes
) -> None:
    body = template.replace(b"@", number)
    said = _check(twins, tag, body)
    if said.startswith("FrameBodyError"):
        return  # a rejection: the exact reading may find serde's reason
    if number.strip() == b"-0" and b'"x"' not in template:  # (not a skipped member)
        assert "-0.0" in said, said
    assert exact_reads == [], body  # respelled, not read exactly


@pytest.mark.parametrize(("tag", "template"), NUMBER_POSITIONS[:6])
def test_a_numbers_text_inside_a_string_is_left_as_it_is(
    twins: Any, exact_reads: list[int], tag: int, template: bytes
) -> None:
    """``"-0"`` in a string (a key too) beside the number: only the number is respelled."""
    body = template.replace(b"@", b"-0").replace(b'"m"', b'"a,-0,\\"-0"').replace(b'"a"', b'"-0"')
    said = _check(twins, tag, body)
    out = respelled(body, {"-0": template.count(b"@")})
    assert out is not None and out.count(b"-0.0") == template.count(b"@"), out
    assert "-0.0" in said and exact_reads == [], said


@pytest.mark.parametrize("tail", TAILS)
@pytest.mark.parametrize(("tag", "template"), NUMBER_POSITIONS[::3])
def test_more_after_the_value_is_rejected_as_msgspec_words_it(
    twins: Any, exact_reads: list[int], tag: int, template: bytes, tail: bytes
) -> None:
    for number in (b"1", b"-0"):
        body = template.replace(b"@", number) + tail
        said = _check(twins, tag, body)
        assert said.startswith("FrameBodyError"), said
    assert exact_reads == [], tail


@pytest.mark.parametrize("body", MISFITS)
def test_a_misfit_of_a_typed_method(twins: Any, exact_reads: list[int], body: bytes) -> None:
    said = _check(twins, 0, body)
    serde_forms = b'"level":{' in body
    assert ("LoggingMessageNotification" in said) is serde_forms, said
    if not serde_forms and not said.startswith("FrameBodyError"):
        assert exact_reads == [], body  # the custom reading gave the value
    elif not serde_forms:  # a _meta neither object nor null: the exact reading words it
        assert b'"_meta":"' in body, said


def test_the_pure_twin_respells_in_pieces_of_a_long_body(exact_reads: list[int]) -> None:
    """Many ``-0`` (rewritten a chunk at a time) and a few (one by one) agree."""
    for count in (3, 5000):
        body = b'{"code":1,"message":"m","data":[' + b",".join([b"-0", b'"-0.5"'] * count) + b"]}"
        value = _frames_py.decode_notification(b"\x01" + body)
        assert repr(value) == repr(_reference(1, body))
        assert repr(value.data[:2]) == "[-0.0, '-0.5']"
    assert exact_reads == []


#: Digits JSON does not take as a number (leading zeros, a bare sign or point, an
#: exponent without digits), each after a number that needs respelling.
NOT_NUMBERS = [b"00", b"-01", b"012.5", b"0-00", b"1.", b".5", b"1e", b"-", b"1e+", b"00e5"]


@pytest.mark.parametrize("junk", NOT_NUMBERS)
@pytest.mark.parametrize(("tag", "template"), NUMBER_POSITIONS)
def test_digits_that_are_no_json_number_beside_a_hard_one_are_rejected(
    twins: Any, tag: int, template: bytes, junk: bytes
) -> None:
    """The respelling of a rejected body takes JSON's numbers alone: digits that are not
    one (``00`` after ``-320.1e-9999999990``, as a fuzzer sent) are left to the
    rejection: a ``FrameBodyError`` in both twins, in the same words, where the reference
    reading rejects the body too."""
    for hard in (b"-320.1e-9999999990", b"-0", b"123456789012345678901234"):
        for body in (
            template.replace(b"@", hard + b" " + junk, 1).replace(b"@", b"1"),
            template.replace(b"@", junk, 1).replace(b"@", hard),
        ):
            assert isinstance(_reference(tag, body), FrameError), body
            said = {
                _said(helpers.outcome(helpers.decoder(frames, _channel(tag)), _payload(tag, body)))
                for frames in twins
            }
            assert len(said) == 1 and said.pop().startswith("FrameBodyError"), (body, said)


#: The bytes the glance for a hard number looks at, two it does not, and the openings.
_GLANCED = b"-+.eE0123456789a [{"


@pytest.mark.c_extension
@settings(max_examples=3000, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([b"-0", b"e+1", b"E-.", b"e", b"0" * 15, b"1" * 16, b". "]),
            st.sampled_from([b"[" * (OPENINGS - 3), b"{" * (OPENINGS // 2), b'{"a":[' * 60]),
            st.binary(max_size=3).map(lambda b: bytes(_GLANCED[x % len(_GLANCED)] for x in b)),
        ),
        max_size=40,
    ).map(b"".join),
    st.integers(0, 31),
)
def test_the_compiled_glance_for_a_hard_number_is_the_rule(body: bytes, shift: int) -> None:
    """df_sj_maybe_hard (the compiled twin's) is ``rejection._maybe_hard`` of the part
    msgspec is asked of (``within_openings``) on every body, at every offset from a
    16-byte step, from bytes, bytearray and memoryview."""
    frames = helpers.compiled()
    body = b"a" * shift + body
    expected = rejection._maybe_hard(within_openings(body)[0])
    for form in (body, bytearray(body), memoryview(b"x" + body)[1:]):
        assert frames._maybe_hard(form) is expected
