"""Every test that takes ``frames`` runs against both hot paths, the aio-libs way.

* ``frames``: the hot-path module under test, ``_frames_py`` then ``_frames_c``.
* ``twins``: both modules at once, ``(_frames_py, _frames_c)``, for a test that
  compares them (skipped, or failed under ``DIVERGE_FRAMES_REQUIRE_EXTENSIONS``, when
  the extension is missing).
* ``channels``: the channel classes' module under test, ``_channel_py`` then
  ``_channel_c`` (the sequence rules' twins); ``channel_twins``: both at once.
* ``@pytest.mark.c_extension``: a test of the compiled module alone.
* ``@pytest.mark.heavy``: a slow family (the live rmcp oracle, big sizes, the C tests
  of the headers, slow parametrizations), left out of a plain ``pytest`` (``addopts``
  in pyproject.toml); ``pytest -m heavy`` runs them alone, ``pytest -m ""`` everything.
  ``.ci/run`` runs them in a step of their own.
* ``pytest --no-extensions``: the pure-Python twin alone (the compiled cases and the
  ``c_extension`` tests skip), as on a platform without a compiler.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import helpers
import pytest

from diverge_frames import _channel_py, _frames_py

DATA = Path(__file__).parent / "data"

#: The two twins by name (``_frames_c`` is None when the extension did not build).
IMPLEMENTATIONS = {"python": _frames_py, "cython": helpers._frames_c}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-extensions",
        action="store_true",
        help="test the pure-Python implementation alone",
    )
    parser.addoption(
        "--extensions-only",
        action="store_true",
        help="leave out the pure-Python twin's parametrizations (its code is the same on"
        " every machine: the arm64 and sanitizer steps of .ci/run test the compiled one)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "c_extension: a test of the compiled module alone")
    helpers.NO_EXTENSIONS = bool(config.getoption("--no-extensions"))


#: The parameters that pick a twin, each valued "python" or "cython".
_TWIN_PARAMETERS = ("frames", "channels", "implementation")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--extensions-only"):
        return
    kept, left_out = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        pure = any(params.get(name) == "python" for name in _TWIN_PARAMETERS)
        (left_out if pure else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("c_extension") is not None:
        helpers.compiled()


@pytest.fixture(params=["python", "cython"])
def frames(request: pytest.FixtureRequest) -> ModuleType:
    """The hot-path module under test: ``_frames_py`` or ``_frames_c``."""
    if request.param == "cython":
        return helpers.compiled()
    return _frames_py


@pytest.fixture
def twins(request: pytest.FixtureRequest) -> tuple[ModuleType, ModuleType]:
    """Both hot-path modules, ``(_frames_py, _frames_c)``."""
    return helpers.both()


@pytest.fixture(params=["python", "cython"])
def channels(request: pytest.FixtureRequest) -> ModuleType:
    """The channel classes' module under test: ``_channel_py`` or ``_channel_c``."""
    if request.param == "cython":
        return helpers.compiled_channels()
    return _channel_py


@pytest.fixture
def channel_twins() -> tuple[ModuleType, ModuleType]:
    """Both channel twins, ``(_channel_py, _channel_c)``."""
    return helpers.both_channels()
