"""Check what the sdist and the wheel hold (run by scripts/check_dist.sh).

Usage::

    python scripts/check_dist_contents.py SDIST WHEEL [WHEEL ...]

The wheel: the modules, ``py.typed``, the stub of the compiled module, the sample
capture and the LICENSE; the compiled extensions when its tag is a platform's, none when
it is ``py3-none-any`` (the pure-Python wheel); no C or Cython source, no tests, no
benchmarks, and no module that imports a package the wheel does not depend on (the
benchmark matrix's peers: mcp, pydantic, orjson). The sdist: the package with its
``.pyx`` and headers (not the C Cython writes from it), the tests and what they read,
``MANIFEST.in``, the LICENSE; no compiled objects, no build junk. Prints each archive's
file count and exits 1 listing every problem found.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import sys
import tarfile
import zipfile

PACKAGE = "diverge_frames"

#: The compiled twins, in every wheel but the pure one.
EXTENSIONS = [
    f"{PACKAGE}/_frames_c.*.so|{PACKAGE}/_frames_c.*.pyd",
    f"{PACKAGE}/_channel_c.*.so|{PACKAGE}/_channel_c.*.pyd",
]
WHEEL_REQUIRED = [
    f"{PACKAGE}/__init__.py",
    f"{PACKAGE}/_frames_py.py",
    f"{PACKAGE}/_capture_bench.py",
    f"{PACKAGE}/_channel_py.py",
    f"{PACKAGE}/_frames_c.pyi",
    f"{PACKAGE}/py.typed",
    f"{PACKAGE}/data/sample.capture.jsonl",
    "*.dist-info/METADATA",
    "*.dist-info/entry_points.txt",
    "*.dist-info/licenses/LICENSE",
]
WHEEL_FORBIDDEN = [
    "*.c",
    "*.h",
    "*.pyx",
    "*.pxd",
    "*.pxi",
    "*.html",
    "*.py[cod]",
    "tests/*",
    "benchmarks/*",
    "*.egg-info/*",
]
#: Top-level packages no module of the wheel may import: the benchmark matrix's peers.
WHEEL_FORBIDDEN_IMPORTS = {"mcp", "mcp_types", "pydantic", "pydantic_core", "orjson"}
#: ...but for the module behind an optional extra, the one it needs: the bridge to the
#: MCP Python SDK (``diverge-frames[mcp]``) imports ``mcp``.
WHEEL_EXTRA_IMPORTS = {"diverge_frames/mcp.py": {"mcp"}}
#: The tag of the pure-Python wheel, for any platform (PEP 425).
PURE_TAG = "py3-none-any"

SDIST_REQUIRED = [
    "PKG-INFO",
    "LICENSE",
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "CHANGELOG.md",
    f"src/{PACKAGE}/_frames_c.pyx",
    f"src/{PACKAGE}/_channel_c.pyx",
    f"src/{PACKAGE}/_channel.h",
    f"src/{PACKAGE}/_check_plans.pxi",
    f"src/{PACKAGE}/_capi.h",
    f"src/{PACKAGE}/_common.h",
    f"src/{PACKAGE}/_serde_json.h",
    f"src/{PACKAGE}/_serde_json_number.h",
    f"src/{PACKAGE}/_write_f64.h",
    f"src/{PACKAGE}/_serde_json_tokens.h",
    f"src/{PACKAGE}/_serde_json_scan.h",
    f"src/{PACKAGE}/_serde_json_glance.h",
    f"src/{PACKAGE}/_serde_json_glance_loop.h",
    f"src/{PACKAGE}/_serde_json_glance_sse2.h",
    f"src/{PACKAGE}/_serde_json_glance_avx2.h",
    f"src/{PACKAGE}/_pow10.h",
    f"src/{PACKAGE}/_precheck.pxi",
    f"src/{PACKAGE}/_rmcp_items.h",
    f"src/{PACKAGE}/_rmcp_plain.h",
    f"src/{PACKAGE}/_items.pxi",
    f"src/{PACKAGE}/_plain.pxi",
    f"src/{PACKAGE}/_encode.pxi",
    f"src/{PACKAGE}/_check.h",
    f"src/{PACKAGE}/_frames_c.pyi",
    f"src/{PACKAGE}/_scan.h",
    f"src/{PACKAGE}/_strings.h",
    f"src/{PACKAGE}/_strings_base.h",
    f"src/{PACKAGE}/_strings_swar.h",
    f"src/{PACKAGE}/_strings_sse2.h",
    f"src/{PACKAGE}/_strings_avx2.h",
    f"src/{PACKAGE}/_strings_avx512.h",
    f"src/{PACKAGE}/_transcode_avx2.h",
    f"src/{PACKAGE}/_transcode_avx512.h",
    f"src/{PACKAGE}/_strings_loops.h",
    f"src/{PACKAGE}/_strings_keys.h",
    f"src/{PACKAGE}/_strings.pxi",
    f"src/{PACKAGE}/_public.pxi",
    f"src/{PACKAGE}/py.typed",
    f"src/{PACKAGE}/data/sample.capture.jsonl",
    "tests/conftest.py",
    "tests/test_stub.py",
    "tests/typing_sample.py",
    "tests/data/*",
    "tests/c/*.c",
    "examples/relay.py",
    "examples/mcp_session.py",
]
SDIST_FORBIDDEN = [
    "src/*.c",  # the C Cython writes (the C test of the scanners, tests/c/, is source)
    "*.so",
    "*.pyd",
    "*.py[cod]",
    "*.html",
    "build/*",
    "*/target/*",
    ".venv/*",
    "*/.pytest_cache/*",
    "*/.hypothesis/*",
]


def _matches(names: list[str], pattern: str) -> list[str]:
    """The names matching any ``|``-separated glob of ``pattern``."""
    return [n for n in names if any(fnmatch.fnmatch(n, p) for p in pattern.split("|"))]


def _problems(kind: str, names: list[str], required: list[str], forbidden: list[str]) -> list[str]:
    out = [f"{kind}: nothing matches {p}" for p in required if not _matches(names, p)]
    out += [f"{kind}: should not hold {n}" for p in forbidden for n in _matches(names, p)]
    return out


def _imported(source: bytes) -> set[str]:
    """Top-level names of the modules that ``source`` imports (absolute imports)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def wheel_import_problems(path: str) -> list[str]:
    """A line per module of the wheel that imports a :data:`WHEEL_FORBIDDEN_IMPORTS`."""
    out = []
    with zipfile.ZipFile(path) as whl:
        for name in whl.namelist():
            if name.endswith((".py", ".pyi")):
                allowed = WHEEL_EXTRA_IMPORTS.get(name, set())
                bad = (_imported(whl.read(name)) & WHEEL_FORBIDDEN_IMPORTS) - allowed
                if bad:
                    out.append(f"wheel {path}: {name} imports {', '.join(sorted(bad))}")
    return out


def sdist_names(path: str) -> list[str]:
    """Member files of an sdist, without the leading ``name-version/``."""
    with tarfile.open(path) as tar:
        return [m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()]


def wheel_problems(path: str, names: list[str]) -> list[str]:
    """What is wrong in the wheel at ``path`` holding ``names``: a platform wheel needs
    the extensions, a ``py3-none-any`` one must not have them (nor any other binary)."""
    tag = "-".join(os.path.basename(path).removesuffix(".whl").split("-")[-3:])
    kind = f"wheel {path}"
    if tag == PURE_TAG:
        return _problems(kind, names, WHEEL_REQUIRED, [*WHEEL_FORBIDDEN, "*.so", "*.pyd"])
    return _problems(kind, names, [*WHEEL_REQUIRED, *EXTENSIONS], WHEEL_FORBIDDEN)


def wheel_names(path: str) -> list[str]:
    """Member files of a wheel."""
    with zipfile.ZipFile(path) as whl:
        return [n for n in whl.namelist() if not n.endswith("/")]


def main(argv: list[str]) -> int:
    """Check ``argv[0]`` (an sdist) and each wheel after it; print what is wrong."""
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    sdist, wheels = argv[0], argv[1:]
    names = sdist_names(sdist)
    print(f"{sdist}: {len(names)} files")
    problems = _problems("sdist", names, SDIST_REQUIRED, SDIST_FORBIDDEN)
    for wheel in wheels:
        names = wheel_names(wheel)
        print(f"{wheel}: {len(names)} files")
        problems += wheel_problems(wheel, names)
        problems += wheel_import_problems(wheel)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
