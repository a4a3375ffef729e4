"""The matrix's rounds (``timing.run_rounds``): every group's order rotates each time
the group is measured, heavy groups (measured every few rounds) too, so that no cell
always runs first or always right after the same other cell."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.timing import Cell, Group, run_rounds


class _Recorded(Cell):
    """A cell whose measurements record their order."""

    log: list[str]

    def measure(self) -> tuple[float, float, float]:
        self.log.append(self.impl)
        return 1.0, 1.0, 0.0


def _orders(cells: int, heavy: bool, stride: int, rounds: int) -> list[list[str]]:
    log: list[str] = []
    group = Group("case", "op", [_Recorded("case", "op", f"c{i}") for i in range(cells)], heavy)
    for cell in group.cells:
        cell.log = log  # type: ignore[attr-defined]
    run_rounds([group], rounds, stride)
    return [log[i : i + cells] for i in range(0, len(log), cells)]


@pytest.mark.parametrize(("cells", "heavy", "stride"), [(6, True, 4), (6, False, 4), (4, True, 2)])
def test_each_cell_runs_first_and_after_each_other(cells: int, heavy: bool, stride: int) -> None:
    orders = _orders(cells, heavy, stride, rounds=41)
    measured = len(range(0, 41, stride)) if heavy else 41
    assert len(orders) == measured
    assert Counter(order[0] for order in orders).keys() == {f"c{i}" for i in range(cells)}
    # whom each cell follows, within a round or from the round before
    flat = [name for order in orders for name in order]
    before = {name: {flat[i - 1] for i in range(1, len(flat)) if flat[i] == name} for name in flat}
    assert all(len(names) >= 2 for names in before.values()), before
