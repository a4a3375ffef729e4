"""The speed guard's long-string checks (``scripts/bench_guard.py``) decide on the rows
a matrix run gives them: each long string passes at its least speed and fails under
it, and the guard times exactly the cases its limits name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks import cases, matrix

GUARD = Path(__file__).resolve().parent.parent / "scripts" / "bench_guard.py"


@pytest.fixture(scope="module")
def guard() -> Any:
    spec = importlib.util.spec_from_file_location("bench_guard", GUARD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_guard"] = module
    spec.loader.exec_module(module)
    return module


def _row(case: str, speed: float, op: str = "encode") -> dict[str, Any]:
    return {
        "case": case,
        "op": op,
        "over_reference": {"orjson": speed},
        "ns": {"compiled": 1.0, "orjson": speed},
        "samples": {},
    }


@pytest.mark.parametrize(
    ("case", "least"),
    [
        ("text_ascii_10KB", 1 / 1.5),
        ("text_utf8_100KB_fresh", 0.75),
        ("text_ascii_1MB", 0.75),
        ("text_markdown_100KB", 0.9),
        ("text_blob_1MB_fresh", 0.9),
        ("text_blob_10KB_fresh", 1 / 1.5),
    ],
)
def test_a_long_string_passes_at_its_least_speed_and_fails_under_it(
    guard: Any, case: str, least: float
) -> None:
    floor = least * guard.LONG_STRING_ENFORCED
    [aim] = guard.long_string_checks({"rows": [_row(case, least), _row(case, 0.1, "decode")]})
    [at] = guard.long_string_checks({"rows": [_row(case, floor)]})
    [under] = guard.long_string_checks({"rows": [_row(case, floor * 0.99)]})
    assert aim["ok"] and aim["aim"] == pytest.approx(least) and aim["worst_case"] == case
    assert at["ok"] and at["limit"] == pytest.approx(floor) and at["value"] < at["aim"]
    assert not under["ok"]


def test_the_guard_times_the_cases_its_limits_name(guard: Any) -> None:
    names = {c.name for c in matrix.select(["text", "fresh"])}
    wanted = {
        f"text_{kind}_{size}{fresh}"
        for kind in cases.TEXT_KINDS
        for size in guard.LONG_STRING_SIZES
        for fresh in ("", "_fresh")
    }
    assert wanted <= names
    assert set(guard.LONG_STRING_SPEED) == set(guard.LONG_STRING_SIZES)
    for limits in guard.LONG_STRING_SPEED.values():
        assert set(limits) == set(cases.TEXT_KINDS)


@pytest.mark.parametrize(
    ("again", "ok", "median"),
    [([0.95, 0.91], True, 0.91), ([0.5, 0.95], False, 0.7), ([0.4, 0.3], False, 0.4)],
)
def test_a_missed_long_string_is_judged_on_the_median_of_three(
    guard: Any, monkeypatch: pytest.MonkeyPatch, again: list[float], ok: bool, median: float
) -> None:
    """A cell under its limit is measured twice more (that cell alone) and judged on
    the median of its three speeds; a cell that passed is not measured again."""
    measured: list[list[str] | None] = []
    speeds = iter(again)

    def long_strings(rounds: int, names: list[str] | None = None) -> dict[str, Any]:
        measured.append(names)
        return {"rows": [_row("text_blob_1MB", next(speeds))]}

    monkeypatch.setattr(guard, "long_strings", long_strings)
    checks = guard.long_string_checks(
        {"rows": [_row("text_blob_1MB", 0.7), _row("text_ascii_1MB", 0.8)]}
    )
    out = guard.remeasured(checks, rounds=3)
    assert measured == [["text_blob_1MB"], ["text_blob_1MB"]]
    blob, ascii_ = out
    assert (blob["ok"], blob["value"]) == (ok, median)
    assert blob["detail"]["speeds"] == sorted([0.7, *again])
    assert (ascii_["ok"], ascii_["value"]) == (True, 0.8)


def _small(case: str, op: str, floor: float) -> dict[str, Any]:
    return {
        "case": case,
        "op": op,
        "over_reference": {"python": 10.0},
        "to_ours_floor": {"compiled": floor},
    }


def test_encode_is_held_to_its_own_limits(guard: Any) -> None:
    """The same ratio over msgspec alone passes decode's limits and fails encode's."""
    rows = [_small(c, op, 1.4) for c in ("log", "progress") for op in ("decode", "encode")]
    verdicts = {
        (c["op"], "mean" if "geometric" in c["check"] else "case", "pure" in c["check"]): c["ok"]
        for c in guard.checks({"rows": rows}, 1.5, 2.0, 1.3, 1.5)
    }
    assert verdicts == {
        ("decode", "case", True): True,
        ("decode", "mean", False): True,
        ("decode", "case", False): True,
        ("encode", "case", True): True,
        ("encode", "mean", False): False,
        ("encode", "case", False): True,
    }
    rows.append(_small("error", "encode", 1.6))
    [worst] = [
        c for c in guard.checks({"rows": rows}, 1.5, 2.0, 1.3, 1.5)
        if c["op"] == "encode" and "every small frame <=" in c["check"]
    ]  # fmt: skip
    assert not worst["ok"] and worst["worst_case"] == "error" and worst["limit"] == 1.5
