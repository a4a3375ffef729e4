"""Differential testing against rmcp 3.1.4: the oracle, our outcome, the comparison.

A *case* is one channel payload (tag byte + body) on one channel. The oracle
(``interop/rmcp-oracle``, Rust, see its README) reports what rmcp makes of it; :func:`ours`
reports the same for one of our hot-path twins, in the same shape, and :func:`disagreement`
says where the two differ (``None`` when they agree).

Agreement means: same verdict (``ok`` / ``empty`` / ``unknown_tag`` / ``body``), same tag,
same variant and method, and ``encode(decode(payload))`` byte-identical to rmcp's
re-encoding. Our typed ``TasksNotification`` is rmcp's ``TaskStatusNotification``; the two
spec notifications rmcp 3.1 leaves custom (``notifications/tasks/status``,
``notifications/elicitation/complete``) count as ``CustomNotification`` when we type them,
and the bytes decide.

Used by ``tests/interop/test_*.py`` and ``scripts/gen_vectors.py``; no pytest imports here.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from diverge_frames import types as t
from diverge_frames.errors import EmptyFrameError, FrameBodyError, UnknownTagError

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
VECTORS = ROOT / "tests" / "vectors"
#: The oracle binary; ``DIVERGE_FRAMES_ORACLE`` overrides the default build location.
ORACLE = Path(
    os.environ.get(
        "DIVERGE_FRAMES_ORACLE",
        ROOT / "interop" / "rmcp-oracle" / "target" / "release" / "rmcp-oracle",
    )
)

NOTIFICATIONS = "notifications"
READ_RESOURCE = "read-resource"
CHANNELS = (NOTIFICATIONS, READ_RESOURCE)

#: Our class -> the rmcp variant name the oracle reports for the same value.
RMCP_VARIANT: dict[type, str] = {
    t.CancelledNotification: "CancelledNotification",
    t.ProgressNotification: "ProgressNotification",
    t.LoggingMessageNotification: "LoggingMessageNotification",
    t.ResourceUpdatedNotification: "ResourceUpdatedNotification",
    t.ResourceListChangedNotification: "ResourceListChangedNotification",
    t.ToolListChangedNotification: "ToolListChangedNotification",
    t.PromptListChangedNotification: "PromptListChangedNotification",
    t.SubscriptionsAcknowledgedNotification: "SubscriptionsAcknowledgedNotification",
    t.TasksNotification: "TaskStatusNotification",
    # Spec notifications rmcp 3.1 does not type: a CustomNotification there.
    t.TaskStatusNotification: "CustomNotification",
    t.ElicitationCompleteNotification: "CustomNotification",
    t.CustomNotification: "CustomNotification",
    t.ReadResourceResult: "ReadResourceResult",
    t.ErrorData: "ErrorData",
}


@dataclass(frozen=True)
class Case:
    """One payload on one channel. ``id`` names where it came from."""

    id: str
    channel: str
    payload: bytes


@dataclass(frozen=True)
class Outcome:
    """What a decoder made of a case, in the oracle's terms.

    ``verdict`` is ``ok``, ``empty``, ``unknown_tag``, ``body``, ``encode_error`` or (ours
    only) ``crash``; ``reencoded`` the bytes written back (``ok`` only); ``error`` a message
    for humans, never compared.
    """

    verdict: str
    tag: int | None = None
    variant: str | None = None
    method: str | None = None
    reencoded: bytes | None = None
    error: str | None = None
    #: SHA-256 (hex) of ``reencoded``; a large golden vector keeps only this.
    digest: str | None = None

    def __post_init__(self) -> None:
        if self.digest is None and self.reencoded is not None:
            object.__setattr__(self, "digest", hashlib.sha256(self.reencoded).hexdigest())

    def key(self) -> tuple:
        """The compared part: everything but ``error`` (bytes by their digest)."""
        return (self.verdict, self.tag, self.variant, self.method, self.digest)


# ------------------------------------------------------------------------- the oracle


def oracle_available() -> bool:
    """True when the oracle binary is built."""
    return ORACLE.is_file() and os.access(ORACLE, os.X_OK)


def run_oracle(cases: list[Case]) -> list[Outcome]:
    """Send every case to the oracle in one batch; return its outcomes in case order.

    Raises RuntimeError when the oracle fails or answers out of step.
    """
    lines = [
        json.dumps({"id": i, "channel": c.channel, "payload": base64.b64encode(c.payload).decode()})
        for i, c in enumerate(cases)
    ]
    proc = subprocess.run(
        [str(ORACLE)],
        input=("\n".join(lines) + "\n").encode(),
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"rmcp-oracle exited {proc.returncode}: {proc.stderr.decode()}")
    reports = [json.loads(line) for line in proc.stdout.splitlines()]
    if len(reports) != len(cases) or any(r["id"] != i for i, r in enumerate(reports)):
        raise RuntimeError(f"rmcp-oracle answered {len(reports)} lines for {len(cases)} cases")
    return [from_report(r) for r in reports]


def from_report(report: dict[str, Any]) -> Outcome:
    """An oracle report line (or a golden vector) as an :class:`Outcome`."""
    verdict = report["verdict"]
    if verdict in ("bad_input", "panic"):
        raise RuntimeError(f"rmcp-oracle could not judge a case: {report}")
    reencoded = report.get("reencoded")
    return Outcome(
        verdict=verdict,
        tag=report.get("tag"),
        variant=report.get("variant"),
        method=report.get("method"),
        reencoded=None if reencoded is None else base64.b64decode(reencoded),
        error=report.get("error"),
    )


# ------------------------------------------------------------------------------- ours


#: The buffer types a payload is decoded from: each must give the same outcome.
PAYLOAD_TYPES: dict[str, Callable[[bytes], Any]] = {
    "bytes": bytes,
    "bytearray": bytearray,
    "memoryview": memoryview,
}


def ours(frames: ModuleType, case: Case, payload_type: str = "bytes") -> Outcome:
    """Decode ``case`` with ``frames`` (``_frames_py`` or ``_frames_c``) and re-encode it.

    ``payload_type`` (a key of :data:`PAYLOAD_TYPES`) is the buffer the payload is handed
    over in. Never raises: an exception that is not a FrameError is reported as ``crash``.
    """
    if case.channel == NOTIFICATIONS:
        decode, encode = frames.decode_notification, frames.encode_notification
    else:
        decode, encode = frames.decode_read_resource, frames.encode_read_resource
    try:
        value = decode(PAYLOAD_TYPES[payload_type](case.payload))
    except EmptyFrameError:
        return Outcome("empty")
    except UnknownTagError as exc:
        return Outcome("unknown_tag", tag=exc.tag)
    except FrameBodyError as exc:
        return Outcome("body", tag=exc.tag, error=str(exc))
    except Exception as exc:  # noqa: BLE001 - any other exception is the bug we look for
        return Outcome("crash", error=f"decode raised {type(exc).__name__}: {exc}")
    cls = type(value)
    variant = RMCP_VARIANT.get(cls, f"?{cls.__name__}")
    method = value.method if variant not in ("ReadResourceResult", "ErrorData") else None
    tag = case.payload[0]
    try:
        reencoded = encode(value)
    except Exception as exc:  # noqa: BLE001
        return Outcome("encode_error", tag, variant, error=f"{type(exc).__name__}: {exc}")
    return Outcome("ok", tag, variant, method, reencoded)


def disagreement(mine: Outcome, rmcp: Outcome) -> str | None:
    """``None`` when the outcomes agree, else a one-line description of the difference."""
    if mine.key() == rmcp.key():
        return None
    if mine.verdict != rmcp.verdict:
        return (
            f"verdict: ours {mine.verdict} ({mine.error or mine.variant}), "
            f"rmcp {rmcp.verdict} ({rmcp.error or rmcp.variant})"
        )
    if (mine.tag, mine.variant, mine.method) != (rmcp.tag, rmcp.variant, rmcp.method):
        return (
            f"variant: ours {mine.tag}/{mine.variant}/{mine.method}, "
            f"rmcp {rmcp.tag}/{rmcp.variant}/{rmcp.method}"
        )
    return f"bytes: ours {short(mine.reencoded)}, rmcp {short(rmcp.reencoded)}"


def short(data: bytes | None, limit: int = 300) -> str:
    """``repr`` of ``data`` cut to ``limit`` characters, for messages."""
    text = repr(data)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------------- the data


def corpus_cases() -> Iterator[Case]:
    """Every line of ``tests/data/corpus`` and every file of ``tests/data/edge-cases``.

    Notification and result lines are tag-0 bodies on their channel; error lines and
    edge-case files ``13-`` to ``16-`` are tag-1 bodies, tried on both channels.
    """
    for path in sorted((DATA / "corpus").glob("*/*.jsonl")):
        name = f"corpus/{path.parent.name}/{path.name}"
        for number, line in enumerate(path.read_bytes().splitlines(), 1):
            if not line.strip():
                continue
            yield from _place(f"{name}:{number}", path.name, line)
    for path in sorted((DATA / "edge-cases").glob("*.json")):
        number = int(path.name.split("-", 1)[0])
        kind = (
            "errors.jsonl"
            if 13 <= number <= 16
            else "read_resource_results.jsonl"
            if number in (10, 12)
            else "notifications.jsonl"
        )
        yield from _place(f"edge-cases/{path.name}", kind, path.read_bytes())


def _place(name: str, kind: str, body: bytes) -> Iterator[Case]:
    if kind == "notifications.jsonl":
        yield Case(name, NOTIFICATIONS, b"\x00" + body)
    elif kind == "read_resource_results.jsonl":
        yield Case(name, READ_RESOURCE, b"\x00" + body)
    else:
        for channel in CHANNELS:
            yield Case(f"{name}@{channel}", channel, b"\x01" + body)


# ------------------------------------------------------------------------ the vectors


#: Bytes longer than this are kept out of a vector: a corpus payload by reference to
#: its line in ``tests/data``, a re-encoding by its SHA-256.
LARGE = 64 * 1024
_CORPUS_ID = re.compile(r"^(corpus/[^:]+):(\d+)(?:@[a-z-]+)?$")


def vector_line(case: Case, rmcp: Outcome) -> dict[str, Any]:
    """A golden vector: the case and rmcp's outcome, as one JSON object.

    ``payload`` / ``reencoded`` are the bytes as text (the tag byte is ``\\u0000`` or
    ``\\u0001``) when they are UTF-8, else ``payload_b64`` / ``reencoded_b64``;
    ``reencoded`` is left out, and ``identical`` is true, when rmcp wrote the payload back
    unchanged. A large corpus payload is ``payload_source`` (its file under
    ``tests/data``, line and tag byte) and ``payload_sha256``; a large re-encoding is
    ``reencoded_sha256``.
    """
    line: dict[str, Any] = {"id": case.id, "channel": case.channel}
    source = _CORPUS_ID.match(case.id)
    if len(case.payload) > LARGE and source is not None:
        line["payload_source"] = {
            "file": source.group(1),
            "line": int(source.group(2)),
            "tag": case.payload[0],
        }
        line["payload_sha256"] = hashlib.sha256(case.payload).hexdigest()
    else:
        line.update(_bytes_field("payload", case.payload))
    line["verdict"] = rmcp.verdict
    for name in ("tag", "variant", "method"):
        value = getattr(rmcp, name)
        if value is not None or (name == "method" and rmcp.verdict == "ok"):
            line[name] = value
    if rmcp.reencoded is not None:
        if rmcp.reencoded == case.payload:
            line["identical"] = True
        elif len(rmcp.reencoded) > LARGE:
            line["reencoded_sha256"] = rmcp.digest
        else:
            line.update(_bytes_field("reencoded", rmcp.reencoded))
    if rmcp.error is not None:
        line["error"] = rmcp.error
    return line


def _bytes_field(name: str, data: bytes) -> dict[str, str]:
    try:
        return {name: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {f"{name}_b64": base64.b64encode(data).decode()}


def _bytes_from(line: dict[str, Any], name: str) -> bytes | None:
    if name in line:
        return line[name].encode("utf-8")
    if f"{name}_b64" in line:
        return base64.b64decode(line[f"{name}_b64"])
    return None


def read_vectors(path: Path) -> Iterator[tuple[Case, Outcome]]:
    """The (case, rmcp outcome) pairs of one golden-vector file."""
    with path.open(encoding="utf-8") as fh:
        for text in fh:
            if not text.strip():
                continue
            line = json.loads(text)
            payload = _bytes_from(line, "payload")
            if payload is None:
                payload = _from_source(line)
            reencoded = payload if line.get("identical") else _bytes_from(line, "reencoded")
            case = Case(line["id"], line["channel"], payload)
            yield (
                case,
                Outcome(
                    line["verdict"],
                    line.get("tag"),
                    line.get("variant"),
                    line.get("method"),
                    reencoded,
                    line.get("error"),
                    line.get("reencoded_sha256"),
                ),
            )


def _from_source(line: dict[str, Any]) -> bytes:
    """A payload kept by reference: the line of a ``tests/data`` file, tag byte first."""
    source = line["payload_source"]
    body = (DATA / source["file"]).read_bytes().splitlines()[source["line"] - 1]
    payload = bytes([source["tag"]]) + body
    if hashlib.sha256(payload).hexdigest() != line["payload_sha256"]:
        raise ValueError(f"{line['id']}: {source['file']} line {source['line']} changed")
    return payload


def write_vectors(
    path: Path,
    pairs: Iterable[tuple[Case, Outcome]],
    extras: Mapping[str, dict[str, Any]] | None = None,
) -> int:
    """Write golden vectors (ASCII JSON, one per line); return how many.

    ``extras`` maps a case id to more members for its line (``read_vectors`` ignores
    them; a mutation vector's seed and operations)."""
    count = 0
    with path.open("w", encoding="ascii", newline="\n") as fh:
        for case, rmcp in pairs:
            line = vector_line(case, rmcp)
            if extras is not None:
                line.update(extras.get(case.id, {}))
            fh.write(json.dumps(line, ensure_ascii=True) + "\n")
            count += 1
    return count
