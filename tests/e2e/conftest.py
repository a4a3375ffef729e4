"""Real MCP servers for the end-to-end tests, each skipped cleanly when it cannot run.

The end-to-end tests are heavy (``@pytest.mark.heavy``, given to each by the hook below):
child processes, and an npm install on the first run; ``pytest -m heavy`` runs them.

* ``python-sdk``: ``servers/py_server.py`` on the official Python SDK (PyPI ``mcp`` 2.x).
* ``server-everything``: ``@modelcontextprotocol/server-everything`` under ``node``,
  installed with ``npm`` at test time into pytest's cache folder
  (``.pytest_cache/d/...``, which git ignores; the system temp folder under
  ``-p no:cacheprovider``) when ``node`` and ``npm`` exist and the npm registry
  answers; never into the repository's tracked files.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, BinaryIO

import pytest

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder heavy, before ``-m`` selects."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.heavy)


#: The version the corpus in tests/data was captured from.
EVERYTHING_VERSION = "2026.8.31"


@dataclass
class ServerSpec:
    """How to start a server and what to ask of it.

    ``work``: the ``tools/call`` params (with a ``progressToken``) that makes it send
    ``progress_steps`` progress notifications; ``extra_calls``: further ``tools/call``
    params that make it talk; ``reads``: URIs that read fine; ``bad_reads``: params of
    ``resources/read`` that fail; ``methods``: notification methods the scenario must
    produce at least once.
    """

    name: str
    argv: list[str]
    subscribe: str
    work: dict[str, Any]
    progress_steps: int
    reads: list[str]
    bad_reads: list[dict[str, Any]]
    methods: set[str]
    extra_calls: list[dict[str, Any]] = field(default_factory=list)


def python_sdk_server() -> ServerSpec:
    try:
        version = metadata.version("mcp")
    except metadata.PackageNotFoundError:
        pytest.skip("the MCP Python SDK (PyPI `mcp`) is not installed")
    if int(version.split(".")[0]) < 2:
        pytest.skip(f"servers/py_server.py needs mcp>=2 (the low-level Server API), not {version}")
    return ServerSpec(
        name="python-sdk",
        argv=[sys.executable, str(HERE / "servers" / "py_server.py")],
        subscribe="mem://text/greeting",
        work={"name": "work", "arguments": {"steps": 4}},
        progress_steps=4,
        reads=["mem://text/greeting", "mem://blob/bytes"],
        bad_reads=[{"uri": "mem://nope"}, {}],
        methods={
            "notifications/progress",
            "notifications/message",
            "notifications/resources/updated",
            "notifications/resources/list_changed",
            "notifications/tools/list_changed",
        },
    )


def _lock(file: BinaryIO) -> None:
    """Hold an exclusive lock on ``file`` until it is closed (POSIX; elsewhere none)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: one process at a time is the caller's to keep
        return
    fcntl.flock(file.fileno(), fcntl.LOCK_EX)


def _npm_install(npm: str, root: Path) -> None:
    """server-everything into ``root`` with npm, or the test skipped."""
    package = f"@modelcontextprotocol/server-everything@{EVERYTHING_VERSION}"
    try:
        subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(root),
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                package,
            ],
            check=True,
            capture_output=True,
            timeout=240,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        pytest.skip(f"could not install {package} with npm: {exc}")


def everything_server(cache: pytest.Cache | None) -> ServerSpec:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed for @modelcontextprotocol/server-everything")
    name = f"server-everything-{EVERYTHING_VERSION}"
    if cache is not None:
        root = Path(cache.mkdir(name))
    else:  # pytest -p no:cacheprovider
        root = Path(tempfile.gettempdir()) / "diverge-frames-e2e" / name
    entry = (
        root / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    )
    # One process installs (pytest-xdist's workers share the directory), the others wait
    # for it: a worker that saw index.js while npm was still writing the rest started a
    # server missing its SDK. The marker is written once npm has finished.
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".install.lock", "wb") as lock:
        _lock(lock)
        if not (root / ".installed").exists() or not entry.exists():
            _npm_install(npm, root)
            (root / ".installed").touch()
    return ServerSpec(
        name="server-everything",
        argv=[node, str(entry), "stdio"],
        subscribe="demo://resource/dynamic/text/1",
        work={"name": "trigger-long-running-operation", "arguments": {"duration": 0.3, "steps": 3}},
        progress_steps=3,
        reads=["demo://resource/dynamic/text/1", "demo://resource/dynamic/blob/2"],
        bad_reads=[{"uri": "demo://nope"}, {}],
        methods={
            "notifications/progress",
            "notifications/message",
            "notifications/resources/updated",
        },
        # Each starts a 5 s timer that sends one message at once; the second call stops it.
        extra_calls=[
            {"name": "toggle-simulated-logging", "arguments": {}},
            {"name": "toggle-subscriber-updates", "arguments": {}},
        ]
        * 2,
    )


@pytest.fixture(scope="session", params=["python-sdk", "server-everything"])
def server(request: pytest.FixtureRequest) -> ServerSpec:
    """Each real server in turn (skipped when it cannot be started here)."""
    if request.param == "python-sdk":
        return python_sdk_server()
    return everything_server(getattr(request.config, "cache", None))
