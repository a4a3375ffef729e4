"""The relay loop: decode -> channel rules -> encode, over the real frames.

What a proxy does with each channel it relays: take each payload, apply the channel's
sequence rules (a notification channel: notifications, an error only last; a
read-resource channel: one response; then the finish, or an abrupt end), and write the
value out again. One operation is one frame. The loops of the matrix
(:data:`IMPLEMENTATIONS`), each returning the bytes it wrote and the channels served
(finished after at least one response):

* ``channel``: ours as users write it, with the events of
  :class:`diverge_frames.channel.NotificationChannel` /
  :class:`~diverge_frames.channel.OneShotChannel`'s ``receive`` (the default decode)
  and :func:`diverge_frames.notifications.encode` / ``read_resource.encode``;
* ``receive_value``, ``values``: the same with ``receive_value(payload)`` per payload,
  or ``values(payloads)`` per channel (no event built);
* ``minimal``: the same decode and encode with a minimal state machine of the same
  rules written inline: what the channel classes cost is the difference;
* ``mcp-types``: the tag byte split off, mcp-types' pydantic models
  (:mod:`benchmarks.peers`), the same inline rules, ``model_dump_json`` and the tag;
* ``orjson``: untyped: ``orjson.loads`` to a dict, minimal checks (an object; a string
  ``method``, a ``contents`` list, or an integer ``code`` and a string ``message``),
  the same inline rules, ``orjson.dumps`` and the tag.

And three more that :func:`run` times (``loops(extra=True)``): ``channel (pure)`` and
``values (pure)``, the pure-Python channel classes (``_channel_py``) with the same
decode and encode, and ``bare``, the same decode and encode with no rules at all: the
floor that :func:`run`'s ``layer_ns`` is measured from.

A channel is ``(kind, payloads)``, which finishes, or ``(kind, payloads, end)`` with
``end`` ``"finish"`` or ``"abort"``. The inline rules raise ``ValueError`` where the
channel classes raise ``SequenceError``; real traffic follows the rules, so neither is
raised here.

``python -m benchmarks.relay`` (from the repository's root) times every loop on three
sets of frames: ``corpus``, :func:`benchmarks.cases.relay_channels` (every corpus
frame under 1 MB: one notification channel carrying every notification then the first
error, one read-resource channel per result and per other error); ``stream``, that
notification channel alone (the cost per frame once a channel is open); ``capture``,
the shipped sample capture channel by channel (:func:`capture_channels`: its
not-served channel and its abort included). Thread CPU time, interleaved rounds
(:mod:`benchmarks.timing`); :func:`run` is the function for other scripts.

``--layer`` times the channel layer alone instead (:func:`layer`): the ``stream``
notifications decoded with no channel, then through each twin's ``receive_value``,
``receive``, and ``receive`` with the loop's ``event.value``, no encode.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import diverge_frames
from diverge_frames import _channel_py, channel, notifications, read_resource
from diverge_frames.capture import read_capture
from diverge_frames.channel import Error, Finished
from diverge_frames.types import ErrorData

from . import peers
from .cases import relay_channels
from .timing import CLOCK, Group, PythonCell, median, median_ratio, run_rounds, steady_allocator

__all__ = [
    "IMPLEMENTATIONS",
    "EXTRA",
    "REFERENCE",
    "FLOOR",
    "Channels",
    "loops",
    "capture_channels",
    "run",
    "layer",
    "main",
]

#: Columns of the relay table, the reference (ours, as users write it) first.
IMPLEMENTATIONS = ("channel", "receive_value", "values", "minimal", "mcp-types", "orjson")
#: The loops only :func:`run` times besides those.
EXTRA = ("channel (pure)", "values (pure)", "bare")
REFERENCE = "channel"
#: What :func:`run`'s ``layer_ns`` is measured from: decode and encode, no rules.
FLOOR = "bare"
#: The untyped loop every :func:`run` ratio is taken to.
ORJSON = "orjson"

#: ``[(kind, payloads)]`` or ``[(kind, payloads, end)]``: the channels to relay.
Channels = Sequence[tuple[Any, ...]]
Loop = Callable[[Channels], tuple[int, int]]

CAPTURE = Path(diverge_frames.__file__).with_name("data") / "sample.capture.jsonl"

_OPEN, _ANSWERED, _ERRORED = 0, 1, 2
_AFTER_THE_END = "a response after the error or after the one result of a read-resource channel"


# ------------------------------------------------------------------------ ours


def _ours(module: Any, api: str) -> Loop:
    """The loop over ``module``'s channel classes, receiving with ``api``:
    ``"events"`` (``receive``), ``"receive_value"`` or ``"values"``."""
    notification_channel, one_shot_channel = module.NotificationChannel, module.OneShotChannel
    encode_notification, encode_read_resource = notifications.encode, read_resource.encode

    def relay(channels: Channels) -> tuple[int, int]:
        written = served = 0
        for kind, payloads, *end in channels:
            if kind == "notifications":
                ch = notification_channel()
                encode = encode_notification
            else:
                ch = one_shot_channel()
                encode = encode_read_resource
            if api == "values":
                for value in ch.values(payloads):
                    written += len(encode(value))
            elif api == "receive_value":
                receive_value = ch.receive_value
                for payload in payloads:
                    written += len(encode(receive_value(payload)))
            else:
                receive = ch.receive
                for payload in payloads:
                    event = receive(payload)
                    written += len(encode(event.error if type(event) is Error else event.value))
            if end and end[0] == "abort":
                ch.abort()
            else:
                served += type(ch.finish()) is Finished
        return written, served

    relay.__doc__ = f"Ours, {module.__name__}'s classes with {api}: ``(bytes, served)``."
    return relay


relay_channel = _ours(channel, "events")
relay_receive_value = _ours(channel, "receive_value")
relay_values = _ours(channel, "values")


def _served(end: list[str], received: int) -> int:
    return 0 if end and end[0] == "abort" else int(received > 0)


def relay_minimal(channels: Channels) -> tuple[int, int]:
    """Ours: the same decode and encode, the rules inline."""
    written = served = 0
    for kind, payloads, *end in channels:
        one_shot = kind != "notifications"
        decode, encode = (
            (read_resource.decode, read_resource.encode)
            if one_shot
            else (notifications.decode, notifications.encode)
        )
        state = _OPEN
        received = 0
        for payload in payloads:
            if state:
                raise ValueError(_AFTER_THE_END)
            value = decode(payload)
            received += 1
            if type(value) is ErrorData:
                state = _ERRORED
            elif one_shot:
                state = _ANSWERED
            written += len(encode(value))
        served += _served(end, received)
    return written, served


def relay_bare(channels: Channels) -> tuple[int, int]:
    """Ours: the same decode and encode, no rules (the floor of ``layer_ns``)."""
    written = served = 0
    for kind, payloads, *end in channels:
        if kind == "notifications":
            decode, encode = notifications.decode, notifications.encode
        else:
            decode, encode = read_resource.decode, read_resource.encode
        for payload in payloads:
            written += len(encode(decode(payload)))
        served += _served(end, len(payloads))
    return written, served


# ---------------------------------------------------------------------- peers


def _mcp_loop() -> Loop | None:
    if peers.mcp_validators() is None:
        return None
    validator, dump = peers.mcp_validator, peers.mcp_dump
    validators = {
        (kind, tag): validator(kind, tag)
        for kind in ("notifications", "read-resource")
        for tag in (0, 1)
    }

    def relay_mcp_types(channels: Channels) -> tuple[int, int]:
        """mcp-types' models, the rules inline."""
        written = served = 0
        for kind, payloads, *end in channels:
            one_shot = kind != "notifications"
            state = _OPEN
            received = 0
            for payload in payloads:
                if state:
                    raise ValueError(_AFTER_THE_END)
                if not payload or payload[0] > 1:
                    raise ValueError("an empty payload or an unknown tag")
                tag = payload[0]
                value = validators[(kind, tag)](payload[1:])
                received += 1
                if tag == 1:
                    state = _ERRORED
                elif one_shot:
                    state = _ANSWERED
                written += len(bytes((tag,)) + dump(value).encode())
            served += _served(end, received)
        return written, served

    return relay_mcp_types


def _orjson_loop() -> Loop | None:
    orjson = peers.orjson()
    if orjson is None:
        return None
    loads, dumps = orjson.loads, orjson.dumps

    def relay_orjson(channels: Channels) -> tuple[int, int]:
        """orjson to dicts, minimal checks, the rules inline."""
        written = served = 0
        for kind, payloads, *end in channels:
            one_shot = kind != "notifications"
            state = _OPEN
            received = 0
            for payload in payloads:
                if state:
                    raise ValueError(_AFTER_THE_END)
                if not payload or payload[0] > 1:
                    raise ValueError("an empty payload or an unknown tag")
                tag = payload[0]
                value = loads(memoryview(payload)[1:])
                if type(value) is not dict:
                    raise ValueError("not a JSON object")
                if tag == 1:
                    if type(value.get("code")) is not int or type(value.get("message")) is not str:
                        raise ValueError("not an error")
                    state = _ERRORED
                elif one_shot:
                    if type(value.get("contents")) is not list:
                        raise ValueError("not a read-resource result")
                    state = _ANSWERED
                elif type(value.get("method")) is not str:
                    raise ValueError("not a notification")
                received += 1
                written += len(bytes((tag,)) + dumps(value))
            served += _served(end, received)
        return written, served

    return relay_orjson


def loops(extra: bool = False) -> dict[str, Loop]:
    """``{column: loop}`` of the implementations installed (:data:`IMPLEMENTATIONS`;
    with ``extra``, :data:`EXTRA` too)."""
    out: dict[str, Loop | None] = {
        "channel": relay_channel,
        "receive_value": relay_receive_value,
        "values": relay_values,
        "minimal": relay_minimal,
        "mcp-types": _mcp_loop(),
        "orjson": _orjson_loop(),
    }
    if extra:
        out["channel (pure)"] = _ours(_channel_py, "events")
        out["values (pure)"] = _ours(_channel_py, "values")
        out["bare"] = relay_bare
    return {name: loop for name, loop in out.items() if loop is not None}


# ------------------------------------------------------------------- frames


def capture_channels(path: Path = CAPTURE) -> list[tuple[str, tuple[bytes, ...], str]]:
    """The channels of a capture as ``(kind, payloads, end)``, in the order they end
    (a channel still open at the end of the capture is left out)."""
    kinds: dict[str, str] = {}
    payloads: dict[str, list[bytes]] = {}
    out = []
    with open(path, "rb") as f:
        for _, record in read_capture(f):
            kinds.setdefault(record.channel, record.kind)
            got = payloads.setdefault(record.channel, [])
            if record.payload is not None:
                got.append(record.payload)
            else:
                out.append(
                    (kinds[record.channel], tuple(got), "finish" if record.finish else "abort")
                )
    return out


def frame_count(channels: Channels) -> int:
    """How many payloads ``channels`` holds: the operations of one pass of a loop."""
    return sum(len(c[1]) for c in channels)


def check(channels: Channels, names: Sequence[str] | None = None) -> dict[str, tuple[int, int]]:
    """Run each loop once over ``channels``: ours must write the same bytes, and every
    loop serve the same channels. Returns ``{name: (bytes, served)}``."""
    available = loops(extra=True)
    results = {n: available[n](channels) for n in (names or available)}
    ours = {n: r for n, r in results.items() if n not in ("mcp-types", "orjson")}
    if len({r[0] for r in ours.values()}) != 1:
        raise AssertionError(f"our relay loops wrote different byte counts: {ours}")
    if len({r[1] for r in results.values()}) != 1:
        raise AssertionError(f"the relay loops disagree on the channels served: {results}")
    return results


# ------------------------------------------------------------------- timing


def run(
    frames: Channels | None = None,
    *,
    rounds: int = 15,
    target_ms: float = 20.0,
    only: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Time the loops over ``frames`` (default: :func:`benchmarks.cases.relay_channels`).

    ``rounds``: interleaved rounds; ``target_ms``: the CPU time of one measurement;
    ``only``: the loops to time (default every one installed, :data:`EXTRA` included;
    ``bare`` and ``orjson`` are always timed, for the columns measured from them).

    Returns ``{"frames", "channels", "served", "rounds", "clock", "loops": {name:
    {"ns_per_frame", "wall_ns_per_frame", "layer_ns", "vs_orjson"}}}``: the medians
    over the rounds of the CPU ns per frame and the wall ns per frame beside it, of the
    ns per frame over ``bare``'s in the same round (what the rules cost on top of
    decode and encode), and of the ratio to orjson's loop in the same round (absent
    without orjson).
    """
    channels = relay_channels() if frames is None else frames
    available = loops(extra=True)
    names = [n for n in available if only is None or n in only or n in (FLOOR, ORJSON)]
    served = check(channels, names)[FLOOR][1]
    count = frame_count(channels)
    cells = {
        n: PythonCell("relay", "relay", n, pairs=[(available[n], channels)], per_pass=count)
        for n in names
    }
    steady_allocator()
    for cell in cells.values():
        cell.calibrate(int(target_ms * 1e6))
    run_rounds([Group("relay", "relay", list(cells.values()))], rounds, heavy_stride=1)
    floor = cells[FLOOR]
    out: dict[str, Any] = {}
    for name, cell in cells.items():
        row = {
            "ns_per_frame": median(cell.cpu),
            "wall_ns_per_frame": median(cell.wall),
            "layer_ns": statistics.median(a - b for a, b in zip(cell.cpu, floor.cpu, strict=True)),
        }
        if ORJSON in cells:
            row["vs_orjson"] = median_ratio(cell, cells[ORJSON])
        out[name] = row
    return {
        "frames": count,
        "channels": len(channels),
        "served": served,
        "rounds": rounds,
        "clock": CLOCK,
        "loops": out,
    }


def _layer_loop(module: Any, api: str) -> Callable[[Sequence[bytes]], int]:
    """A pass over notification payloads through ``module``'s channel, receiving with
    ``api``: ``"receive_value"``, ``"receive"`` or ``"receive + value"`` (the event's
    ``value`` or ``error`` taken, as a relay does)."""
    notification_channel = module.NotificationChannel

    def relay(payloads: Sequence[bytes]) -> int:
        ch = notification_channel()
        taken = 0
        if api == "receive_value":
            receive_value = ch.receive_value
            for payload in payloads:
                value = receive_value(payload)
                taken += 1
        elif api == "receive":
            receive = ch.receive
            for payload in payloads:
                value = receive(payload)
                taken += 1
        else:
            receive = ch.receive
            for payload in payloads:
                event = receive(payload)
                value = event.error if type(event) is Error else event.value
                taken += 1
        del value
        return taken

    return relay


def _decode_loop(payloads: Sequence[bytes]) -> int:
    """The floor of :func:`layer`: each payload decoded, no channel."""
    decode = notifications.decode
    taken = 0
    for payload in payloads:
        value = decode(payload)
        taken += 1
    del value
    return taken


def layer(
    payloads: Sequence[bytes] | None = None, *, rounds: int = 15, target_ms: float = 20.0
) -> dict[str, Any]:
    """Time the channel layer alone over notification ``payloads`` (default: the
    ``stream`` set's), the default decode and no encode.

    Returns ``{"frames", "rounds", "clock", "loops": {name: {"ns_per_frame",
    "over_decode", "over_receive_value"}}}``, the loops ``decode`` (no channel) and,
    for ``compiled`` (when built) and ``pure`` channel classes, ``receive_value``,
    ``receive`` and ``receive + value``: the medians over the rounds of the CPU ns per
    frame, and of the ns per frame over ``decode``'s and over the same twin's
    ``receive_value``'s in the same round.
    """
    if payloads is None:
        payloads = relay_channels()[0][1]
    twins = {"pure": _channel_py}
    if getattr(channel, "_IMPLEMENTATION", "python") == "cython":
        twins = {"compiled": channel, **twins}
    functions: dict[str, Callable[[Sequence[bytes]], int]] = {"decode": _decode_loop}
    for twin, module in twins.items():
        for api in ("receive_value", "receive", "receive + value"):
            functions[f"{twin} {api}"] = _layer_loop(module, api)
    count = len(payloads)
    for name, function in functions.items():
        if function(payloads) != count:
            raise AssertionError(f"{name} took {function(payloads)} of {count} frames")
    cells = {
        name: PythonCell("layer", "layer", name, pairs=[(function, payloads)], per_pass=count)
        for name, function in functions.items()
    }
    steady_allocator()
    for cell in cells.values():
        cell.calibrate(int(target_ms * 1e6))
    run_rounds([Group("layer", "layer", list(cells.values()))], rounds, heavy_stride=1)

    def over(cell: Any, base: Any) -> float:
        return statistics.median(a - b for a, b in zip(cell.cpu, base.cpu, strict=True))

    out: dict[str, Any] = {}
    for name, cell in cells.items():
        row = {"ns_per_frame": median(cell.cpu), "over_decode": over(cell, cells["decode"])}
        if name != "decode":
            row["over_receive_value"] = over(cell, cells[f"{name.split()[0]} receive_value"])
        out[name] = row
    return {"frames": count, "rounds": rounds, "clock": CLOCK, "loops": out}


def _layer_table(result: dict[str, Any]) -> str:
    lines = [
        f"layer: {result['frames']} notifications, {result['rounds']} rounds, {result['clock']}",
        f"  {'loop':26} {'ns/frame':>9} {'over decode':>12} {'over receive_value':>19}",
    ]
    for name, row in result["loops"].items():
        extra = f"{row['over_receive_value']:+19.1f}" if "over_receive_value" in row else ""
        lines.append(f"  {name:26} {row['ns_per_frame']:9.1f} {row['over_decode']:+12.1f} {extra}")
    return "\n".join(lines)


def _table(title: str, result: dict[str, Any]) -> str:
    lines = [
        (
            f"{title}: {result['frames']} frames on {result['channels']} channels, "
            f"{result['rounds']} rounds, {result['clock']}"
        ),
        f"  {'loop':15} {'ns/frame':>9} {'frames/s':>10} {'vs orjson':>10} {'layer ns':>9}",
    ]
    for name, row in result["loops"].items():
        ratio = f"{row['vs_orjson']:.3f}x" if "vs_orjson" in row else "-"
        lines.append(
            f"  {name:15} {row['ns_per_frame']:9.1f} {1e9 / row['ns_per_frame']:10,.0f} "
            f"{ratio:>10} {row['layer_ns']:+9.1f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Time the three frame sets and print a table each (``--json PATH`` writes them)."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.relay", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--target-ms", type=float, default=20.0)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument(
        "--only", metavar="LOOP,...", help="time these loops (and bare and orjson) alone"
    )
    parser.add_argument(
        "--layer", action="store_true", help="time the channel layer alone (no encode)"
    )
    args = parser.parse_args(argv)
    only = None if args.only is None else args.only.split(",")
    orjson = peers.orjson()
    print(
        f"diverge-frames {diverge_frames.__version__} ({diverge_frames.IMPLEMENTATION}, "
        f"channel classes {getattr(channel, '_IMPLEMENTATION', 'python')}), "
        f"Python {platform.python_version()}, "
        f"orjson {getattr(orjson, '__version__', 'missing')}, {platform.machine()}"
    )
    corpus = relay_channels()
    results = {}
    if args.layer:
        results["layer"] = layer(corpus[0][1], rounds=args.rounds, target_ms=args.target_ms)
        print(_layer_table(results["layer"]), flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        return 0
    for title, frames in (
        ("corpus", corpus),
        ("stream", corpus[:1]),
        ("capture", capture_channels()),
    ):
        results[title] = run(frames, rounds=args.rounds, target_ms=args.target_ms, only=only)
        print(_table(title, results[title]), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
