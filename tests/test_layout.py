"""The package's layout rules: one job per module, each rule written once.

* The compiled twin's compile-time copies of the rules' limits equal the rules'.
* Nothing in the package imports the pure-Python twin but the switch (``_impl``), nor
  the pure-Python channel twin but ``channel``.
* The typed-method lists are derived from the classes, not kept by hand.
* The package repeats few runs of six lines outside the twins' mirrors.
* Docstring summaries are one line (ruff D205), within a few findings per 1,000 lines.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import helpers
import pytest

import diverge_frames
from diverge_frames import _frames_py, _wire
from diverge_frames import types as t
from diverge_frames._exact import rmcp_read, rmcp_structs, serde_json

PACKAGE = Path(diverge_frames.__file__).parent
#: The package's source in this repository (its .pyx, .pxi and C headers, which a wheel
#: does not install), else the installed package.
_REPO_SOURCE = Path(__file__).resolve().parents[1] / "src" / "diverge_frames"
SOURCE = _REPO_SOURCE if (_REPO_SOURCE / "_frames_c.pyx").exists() else PACKAGE


def test_compiled_limits_equal_the_rules(frames) -> None:
    """The C header's limits and reason codes (``_serde_json.h``) are ``_exact.serde_json``'s."""
    if frames.__name__.endswith("_frames_py"):
        pytest.skip("the pure twin reads the rules' constants directly")
    limits = frames.LIMITS
    assert limits["MAX_DEPTH"] == serde_json.MAX_DEPTH
    assert limits["MAX_POWER"] == serde_json.MAX_POWER
    assert limits["MAX_SIGNIFICAND"] == serde_json.MAX_SIGNIFICAND
    for name, code in limits["REASONS"].items():
        assert serde_json.REASONS[code] == getattr(serde_json, name), name
    assert len(limits["REASONS"]) == len(serde_json.REASONS) - 1


def _imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names.add(base)
            names.update(
                f"{base}.{a.name}" if base.endswith(".") is False else base + a.name
                for a in node.names
            )
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_only_the_switch_imports_the_pure_twin() -> None:
    importers = sorted(
        path.name
        for path in PACKAGE.glob("*.py")
        if any(name.endswith("_frames_py") for name in _imported_modules(path))
    )
    assert importers == ["_impl.py"]


def test_only_the_channel_module_imports_the_pure_channel_twin() -> None:
    """The channel classes' switch is ``channel.py`` (their twins import
    ``notifications``, which imports ``_impl``: ``_impl`` cannot import them)."""
    importers = sorted(
        path.name
        for path in PACKAGE.glob("*.py")
        if any(name.endswith("_channel_py") for name in _imported_modules(path))
    )
    assert importers == ["channel.py"]


def test_typed_method_lists_come_from_the_classes() -> None:
    assert set(_wire.TYPED_METHODS) == {cls.__struct_config__.tag for cls in t.TYPED_NOTIFICATIONS}
    assert frozenset(t.TYPED_NOTIFICATIONS) == _wire.TYPED_CLASSES
    # rmcp types every method but those whose params are exact-fit custom shapes
    untyped = {"notifications/tasks/status", "notifications/elicitation/complete"}
    assert set(rmcp_structs.RMCP_TYPED) == set(_wire.TYPED_METHODS) - untyped
    assert rmcp_structs.RMCP_TYPED["notifications/progress"] == (
        "message",
        "progress",
        "progressToken",
        "total",
    )
    assert rmcp_structs.RMCP_TYPED["notifications/tools/list_changed"] == ()


#: Bodies of a method rmcp types whose params its typed variant does not read: rmcp
#: takes each as a CustomNotification.
MISFITS = [
    b'{"method":"notifications/progress","params":{"progressToken":1}}',
    b'{"method":"notifications/message","params":{"level":"loud","data":1}}',
    b'{"params":{"requestId":[1]},"method":"notifications/cancelled"}',
    b'{"method":"notifications/resources/updated","params":{"uri":7,"n":[{"a":1}]}}',
]


@pytest.mark.c_extension
@pytest.mark.parametrize("body", MISFITS)
def test_a_misfit_is_read_twice_by_msgspec_and_scanned_once(body: bytes) -> None:
    """The compiled twin: the typed attempt, one general read (the custom decoder's, which
    gives the value), one C scan."""
    compiled = helpers.compiled()
    if compiled._counts() is None:
        pytest.skip("free-threaded CPython does not count")
    value = compiled.decode_notification(b"\x00" + body)
    assert type(value) is t.CustomNotification
    reads, scans = compiled._counts()
    assert reads == 1, reads  # the failed typed attempt (one that gives the value is not counted)
    assert scans == 1, scans


@pytest.mark.parametrize("body", MISFITS)
def test_a_misfit_is_read_twice_by_msgspec_in_the_pure_twin(
    body: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pure twin: the typed attempt and the custom decoder, no exact reading."""
    counts = {"msgspec": 0, "read": 0}

    def counted(what: str, function: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            counts[what] += 1
            return function(*args, **kwargs)

        return call

    for name in ("_decode_typed", "_decode_custom"):
        monkeypatch.setattr(_frames_py, name, counted("msgspec", getattr(_frames_py, name)))
    monkeypatch.setattr(rmcp_read, "read", counted("read", rmcp_read.read))
    value = _frames_py.decode_notification(b"\x00" + body)
    assert type(value) is t.CustomNotification
    assert counts["msgspec"] == 2, counts
    assert counts["read"] == 0, counts


def test_the_counts_see_each_reading() -> None:
    """The compiled twin's counts move with what it reads: nothing for a plain typed
    body (its typed reading gives the value), a scan, its rewrite and a general reading
    for a body with a repeated member, a failed attempt and a scan for a misfit (whose
    custom reading gives the value)."""
    compiled = helpers.compiled()
    if compiled._counts() is None:
        pytest.skip("free-threaded CPython does not count")
    compiled.decode_notification(b'\x00{"method":"notifications/tools/list_changed"}')
    assert compiled._counts() == (0, 0)
    compiled.decode_notification(
        b'\x00{"method":"notifications/progress","params":{"progressToken":1,"progress":1,"progress":2}}'
    )
    assert compiled._counts() == (1, 2)  # the scan, then the rewrite that spells the keys
    compiled.decode_notification(b'\x00{"method":"notifications/progress","params":{}}')
    assert compiled._counts() == (1, 1)


EXACT = PACKAGE / "_exact"
#: The twins of each pair, which the exact reading's rules never import.
TWINS = ("_frames_py", "_frames_c", "_channel_py", "_channel_c", "_impl")


def test_the_exact_reading_imports_neither_twin() -> None:
    """Calls go down: nothing in ``_exact`` imports a twin (nor the switch, nor a public
    module that would reach one)."""
    found = {
        path.name: sorted(
            name
            for name in _imported_modules(path)
            if name.rsplit(".", 1)[-1] in (*TWINS, "notifications", "read_resource")
        )
        for path in EXACT.glob("*.py")
    }
    assert len(found) >= 10
    assert {name: twins for name, twins in found.items() if twins} == {}


def test_no_module_of_serde_json_serde_or_rmcp_rules_at_the_top_level() -> None:
    """serde_json's, serde's and rmcp's rules live in ``_exact``, named by their layer."""
    top = sorted(path.stem for path in PACKAGE.glob("*.py"))
    assert [name for name in top if "serde" in name or "rmcp" in name] == []
    layers = {path.stem.split("_")[0] for path in EXACT.glob("*.py") if path.stem != "__init__"}
    assert {"serde", "rmcp"} <= layers


#: At most this many lines in a module (``types.py``: the public types, more).
LIMITS = {".py": 450, ".pyx": 800, ".pxi": 800}
LONGER = {"types.py": 600}


def test_module_sizes() -> None:
    files = [p for p in PACKAGE.rglob("*") if p.suffix in LIMITS and "__pycache__" not in p.parts]
    assert len(files) > 30
    sizes = {p.relative_to(PACKAGE).as_posix(): len(p.read_text().splitlines()) for p in files}
    over = {
        name: size
        for name, size in sizes.items()
        if size > LONGER.get(name, LIMITS[Path(name).suffix])
    }
    assert over == {}


#: How many runs of six lines the package may repeat, outside the twin mirrors.
REPEATED_RUNS_ALLOWED = 10
#: The pairs of files that mirror each other by design: a compiled twin and its pure one.
TWIN_MIRRORS = {
    frozenset({"_channel_c.pyx", "_channel_py.py"}),
    frozenset({"_frames_c.pyx", "_frames_py.py"}),
}
_RUN = 6


def _meaningful_lines(text: str) -> list[tuple[int, str]]:
    """``text``'s lines with their numbers, stripped, without blanks, comments and lines
    of under four characters (closing brackets, ``else:``)."""
    kept = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if len(line) >= 4 and not line.startswith(("#", "//", "/*", "*")):
            kept.append((number, line))
    return kept


def _repeated_runs(texts: dict[str, str]) -> list[str]:
    """The places where six meaningful lines stand again, identical once stripped.

    One entry a run (``a.py:10 ~ b.py:40``): overlapping windows of one run count once.
    """
    places: dict[tuple[str, ...], list[tuple[str, int]]] = {}
    numbers = {}
    for name, text in sorted(texts.items()):
        lines = _meaningful_lines(text)
        numbers[name] = [number for number, _ in lines]
        for i in range(len(lines) - _RUN + 1):
            window = tuple(line for _, line in lines[i : i + _RUN])
            places.setdefault(window, []).append((name, i))
    pairs: dict[tuple[str, str], set[tuple[int, int]]] = {}
    for found in places.values():
        for a, (name_a, at_a) in enumerate(found):
            for name_b, at_b in found[a + 1 :]:
                if name_a != name_b or abs(at_a - at_b) >= _RUN:
                    pairs.setdefault((name_a, name_b), set()).add((at_a, at_b))
    runs = []
    for (name_a, name_b), starts in sorted(pairs.items()):
        for at_a, at_b in sorted(starts):
            if (at_a - 1, at_b - 1) not in starts:  # the first window of its run
                runs.append(f"{name_a}:{numbers[name_a][at_a]} ~ {name_b}:{numbers[name_b][at_b]}")
    return runs


def test_the_package_repeats_few_runs_of_six_lines() -> None:
    texts = {
        p.relative_to(SOURCE).as_posix(): p.read_text()
        for p in SOURCE.rglob("*")
        if p.suffix in {".py", ".pyx", ".pxi", ".h"} and "__pycache__" not in p.parts
    }
    assert len(texts) > 30
    runs = [
        run
        for run in _repeated_runs(texts)
        if frozenset(place.split(":")[0] for place in run.split(" ~ ")) not in TWIN_MIRRORS
    ]
    assert len(runs) <= REPEATED_RUNS_ALLOWED, runs


def test_the_repetition_check_sees_a_copied_run() -> None:
    body = "\n".join(f"value_{i} = compute({i}, limit)" for i in range(8))
    assert _repeated_runs({"a.py": body, "b.py": "x = 1\n" + body}) == ["a.py:1 ~ b.py:2"]
    assert _repeated_runs({"a.py": body, "b.py": body.replace("limit", "other")}) == []


def _cython_code(text: str) -> str:
    """``text`` without its comments, strings and the module paths of its imports."""
    text = re.sub(r'"""[\s\S]*?"""', '""', text)
    text = re.sub(r'[rbfu]*"(?:[^"\\\n]|\\.)*"', '""', text)
    text = re.sub(r"[rbfu]*'(?:[^'\\\n]|\\.)*'", "''", text)
    text = re.sub(r"#[^\n]*", "", text)
    return re.sub(r"^(from|cimport|import) \S+", "", text, flags=re.MULTILINE)


def _defined(text: str) -> set[str]:
    """The names a Cython fragment defines at its top level: functions, classes, C and
    Python variables, and the members of its ``cdef enum`` and ``extern`` blocks."""
    names: set[str] = set()
    block = False
    for line in _cython_code(text).splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            match = re.match(r"(?:cdef|cpdef|def|class|ctypedef)\b(.*)", line)
            block = bool(match and re.match(r"\s*(enum|extern)\b.*:\s*$", match.group(1)))
            if match and not block:
                names.update(
                    re.findall(r"\w+", re.split(r"[(=\[:]", match.group(1), maxsplit=1)[0])[-1:]
                )
                names.update(re.findall(r",\s*(\w+)\s*=", match.group(1)))
            elif not match and (assigned := re.match(r"(\w+)\s*=", line)):
                names.add(assigned.group(1))
        elif block and re.match(r"    \S", line):
            head = re.split(r"[(=\[]", line.strip(), maxsplit=1)[0]
            names.update(re.findall(r"\w+", head)[-1:])
            names.update(re.findall(r",\s*(\w+)", head))
    return names


def _fragments() -> list[tuple[str, str]]:
    """``_frames_c.pyx`` cut at its ``include`` lines: the text of each piece in order,
    the ``.pyx``'s own pieces and the ``.pxi`` it includes."""
    pieces: list[tuple[str, str]] = []
    lines: list[str] = []
    for line in (SOURCE / "_frames_c.pyx").read_text().splitlines(keepends=True):
        included = re.match(r'include "(.+)"', line)
        if included:
            pieces.append((f"_frames_c.pyx#{len(pieces)}", "".join(lines)))
            pieces.append((included.group(1), (SOURCE / included.group(1)).read_text()))
            lines = []
        else:
            lines.append(line)
    pieces.append((f"_frames_c.pyx#{len(pieces)}", "".join(lines)))
    return pieces


@pytest.mark.skipif(not (SOURCE / "_frames_c.pyx").exists(), reason="no source tree")
def test_each_pxi_uses_only_what_came_before() -> None:
    """The compiled twin's fragments are layers: each ``.pxi`` uses only names defined
    before its ``include`` (the ``.pyx``'s head, the fragments included earlier); the
    ``.pyx`` after them is the top. Each name is defined once."""
    pieces = _fragments()
    included = [name for name, _ in pieces if name.endswith(".pxi")]
    assert included == [
        "_check_plans.pxi",
        "_public.pxi",
        "_precheck.pxi",
        "_items.pxi",
        "_plain.pxi",
        "_strings.pxi",
        "_encode.pxi",
    ]
    defined = [_defined(text) for _, text in pieces]
    every = [name for names in defined for name in names]
    assert sorted({n for n in every if every.count(n) > 1}) == []
    for i, (name, text) in enumerate(pieces[:-1]):
        later = set().union(*defined[i + 1 :])
        used = set(re.findall(r"\w+", _cython_code(text)))
        assert sorted(used & later) == [], name


def test_the_layer_check_sees_a_name_used_too_early() -> None:
    """The check above fails a fragment that uses a name defined after it."""
    early = "cdef int _a = 1\n"
    late = "cdef int _b = _a + _c\ncdef enum:\n    _c\n"
    assert _defined(early) == {"_a"} and _defined(late) == {"_b", "_c"}
    used = set(re.findall(r"\w+", _cython_code(early + "x = _b  # _c\n")))
    assert used & _defined(late) == {"_b"}


def test_importing_the_compiled_twin_does_not_import_the_pure_one() -> None:
    code = (
        "import sys, diverge_frames\n"
        "print(diverge_frames.IMPLEMENTATION, 'diverge_frames._frames_py' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DIVERGE_FRAMES_NO_EXTENSIONS"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    implementation, pure_imported = done.stdout.split()
    if implementation != "cython":
        pytest.skip("the compiled twin is not built")
    assert pure_imported == "False"
    env["DIVERGE_FRAMES_NO_EXTENSIONS"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["python", "True"]


def test_the_tags_are_written_once() -> None:
    """The public tag constants and the twins' are ``_wire``'s."""
    from diverge_frames import notifications, read_resource

    assert (notifications.TAG_NOTIFICATION, notifications.TAG_ERROR) == (0, 1)
    assert (read_resource.TAG_RESULT, read_resource.TAG_ERROR) == (0, 1)
    for path in PACKAGE.glob("*.py"):
        if path.name != "_wire.py":
            assert re.search(r"^_?TAG_\w+ = \d", path.read_text(), re.MULTILINE) is None, path


#: The C headers written by hand (``_pow10.h`` is generated by scripts/gen_pow10.py).
_HEADERS = sorted(p for p in SOURCE.glob("*.h") if p.name != "_pow10.h")
#: The fragments included once per path, with that path's macros defined: the string
#: loops (by ``_strings.h``) and the glance's block loop (by ``_serde_json_glance.h``).
_FRAGMENTS = {"_strings_loops.h", "_serde_json_glance_loop.h"}


@pytest.mark.skipif(not _HEADERS, reason="no source tree")
def test_headers_are_one_algorithm_each() -> None:
    """No hand-written header over 700 lines; the portability macros in ``_common.h`` alone.

    Each header but the per-path fragment includes ``_common.h`` (after ``Python.h``, where
    it needs that) rather than another header only for its macros, and defines none of
    ``_common.h``'s macros again.
    """
    common = (SOURCE / "_common.h").read_text(encoding="utf-8")
    macros = {
        line.split()[1].split("(")[0]
        for line in common.splitlines()
        if line.startswith("#define ") and not line.startswith("#define DF_COMMON_H")
    }
    assert {"DF_INLINE", "DF_ALWAYS_INLINE", "DF_SSE2", "DF_AVX2"} <= macros
    long = {p.name: n for p in _HEADERS if (n := len(p.read_text().splitlines())) > 700}
    assert long == {}
    for path in _HEADERS:
        if path.name in _FRAGMENTS or path.name in {"_common.h", "_channel.h"}:
            continue
        text = path.read_text(encoding="utf-8")
        includes = [line for line in text.splitlines() if line.startswith('#include "')]
        assert includes and includes[0] == '#include "_common.h"', path.name
        defined = {
            line.split()[1].split("(")[0]
            for line in text.splitlines()
            if line.startswith("#define ")
        }
        assert not defined & macros, (path.name, sorted(defined & macros))


#: At most this many ruff D205 findings (a docstring's summary running on past its first
#: line) per 1,000 lines of the package's Python.
D205_PER_1000_LINES = 5


def _ruff() -> str | None:
    """The ruff program: the ``ruff`` package's when it is importable, else one on PATH."""
    try:
        import ruff  # type: ignore[import-not-found, unused-ignore]

        return str(ruff.find_ruff_bin())
    except (ImportError, FileNotFoundError):
        return shutil.which("ruff")


def test_docstring_summaries_are_one_line() -> None:
    """Ruff D205 over the package: at most a few findings per 1,000 lines of Python."""
    ruff = _ruff()
    if ruff is None:
        pytest.skip("ruff is not installed (scripts/requirements-static.txt has it)")
    files = [p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts]
    lines = sum(len(p.read_text().splitlines()) for p in files)
    assert lines > 1000
    options = ["--isolated", "--select", "D205", "--output-format", "concise", "--exit-zero"]
    done = subprocess.run(
        [ruff, "check", *options, "--no-cache", *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    findings = [line for line in done.stdout.splitlines() if ": D205 " in line]
    assert len(findings) * 1000 <= D205_PER_1000_LINES * lines, findings
