"""``convert``, ``to_builtins`` and ``json_schema`` on every golden vector (rmcp's own
reading and writing of each payload) and the corpus.

* ``to_builtins(decode(p))`` is the JSON value rmcp writes back for ``p``;
* ``convert(obj, T)`` is ``decode`` of the JSON of ``obj``: for every payload rmcp
  accepts, ``obj`` the plain reading of its body (where that reading is the body's:
  no duplicated key, no number msgspec and serde_json read apart), for ``T`` the
  union the tag announces and the value's own class;
* the schema accepts every value ``to_builtins`` gives.
"""

from __future__ import annotations

import json
from typing import Any

import helpers
import jsonschema
import msgspec
import pytest
from rmcp_diff import VECTORS, corpus_cases, read_vectors

import diverge_frames
from diverge_frames import _frames_py
from diverge_frames import types as t
from diverge_frames.errors import FrameError

#: As in test_vectors.py: ``mutations.jsonl`` holds known disagreements of decode with
#: rmcp (test_mutations.py), which are not convert's to repeat.
VECTOR_FILES = sorted(p for p in VECTORS.glob("*.jsonl") if p.name != "mutations.jsonl")


def _union(case: Any) -> Any:
    if case.payload[0] == 1:
        return t.ErrorData
    return t.ServerNotification if case.channel == "notifications" else t.ReadResourceResult


def _pairs() -> list[Any]:
    return [pair for path in VECTOR_FILES for pair in read_vectors(path)]


def test_there_are_vectors() -> None:
    assert len(_pairs()) > 1000


def test_to_builtins_is_the_json_rmcp_writes(frames: Any) -> None:
    checked = 0
    for case, rmcp in _pairs():
        if rmcp.verdict != "ok" or rmcp.reencoded is None:
            continue
        value = helpers.decoder(frames, case.channel)(case.payload)
        assert diverge_frames.to_builtins(value) == json.loads(rmcp.reencoded[1:]), case.id
        checked += 1
    assert checked > 500


def _takes_exact(body: bytes) -> bool:
    """Whether the body takes the rmcp-exact path (one too deep for this test's stack to
    look at is not a plain body either)."""
    try:
        return _frames_py._precheck(body)
    except RecursionError:
        return True


def test_convert_is_decode_of_the_json(frames: Any) -> None:
    checked = 0
    for case, rmcp in _pairs():
        if rmcp.verdict != "ok":
            continue
        body = case.payload[1:]
        if _takes_exact(body):
            continue  # the plain reading of the body is not the body's
        obj = msgspec.json.decode(body)
        value = helpers.decoder(frames, case.channel)(case.payload)
        for target in (_union(case), type(value)):
            got = diverge_frames.convert(obj, target)
            assert type(got) is type(value) and got == value, (case.id, target)
        checked += 1
    assert checked > 500


def test_convert_refuses_what_decode_refuses(frames: Any) -> None:
    refused = 0
    for case, rmcp in _pairs():
        body = case.payload[1:]
        if rmcp.verdict != "body" or _takes_exact(body) or not case.payload:
            continue
        try:
            obj = msgspec.json.decode(body)
        except msgspec.DecodeError:
            continue  # not JSON: there is no obj
        with pytest.raises(msgspec.ValidationError):
            diverge_frames.convert(obj, _union(case))
        refused += 1
    assert refused > 20


def test_convert_and_to_builtins_round_trip_the_corpus(frames: Any) -> None:
    for case in corpus_cases():
        try:
            value = helpers.decoder(frames, case.channel)(case.payload)
        except FrameError:
            continue
        plain = diverge_frames.to_builtins(value)
        assert diverge_frames.convert(plain, type(value)) == value, case.id


def test_the_schema_accepts_what_is_written() -> None:
    schemas = {
        "notifications": jsonschema.Draft202012Validator(diverge_frames.json_schema()),
        "read-resource": jsonschema.Draft202012Validator(
            diverge_frames.json_schema(t.ReadResourceResult)
        ),
        "error": jsonschema.Draft202012Validator(diverge_frames.json_schema(t.ErrorData)),
    }
    for schema in schemas.values():
        jsonschema.Draft202012Validator.check_schema(schema.schema)
    checked = 0
    for case, rmcp in _pairs():
        if rmcp.verdict != "ok" or rmcp.reencoded is None:
            continue
        kind = "error" if case.payload[0] == 1 else case.channel
        errors = list(schemas[kind].iter_errors(json.loads(rmcp.reencoded[1:])))
        assert not errors, (case.id, errors[0].message)
        checked += 1
    assert checked > 500
    assert list(schemas["notifications"].iter_errors({"method": 5}))


def test_members_of_a_frame_convert_alone() -> None:
    params = diverge_frames.convert(
        {"progress": 1, "progressToken": "a"}, t.ProgressNotificationParam
    )
    assert params == t.ProgressNotificationParam(progress=1.0, progress_token="a")
    assert diverge_frames.to_builtins(params) == {"progress": 1.0, "progressToken": "a"}
    item = diverge_frames.convert({"uri": "u", "blob": "AA", "text": None}, t.ResourceContents)
    assert item == t.BlobResourceContents(uri="u", blob="AA")
    with pytest.raises(
        msgspec.ValidationError, match=r"Invalid enum value 'loud' - at `\$\.level`"
    ):
        diverge_frames.convert({"level": "loud", "data": 1}, t.LoggingMessageNotificationParam)
    with pytest.raises(ValueError, match=r"^\$\.progress: nan"):
        diverge_frames.to_builtins(
            t.ProgressNotificationParam(progress=float("nan"), progress_token=1)
        )
    with pytest.raises(TypeError):
        diverge_frames.convert({}, dict)
