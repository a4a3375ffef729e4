"""Write the API reference, HTML generated from the docstrings by pdoc, with no network.

Usage (a Python with ``pdoc`` and ``diverge-frames`` installed)::

    python scripts/build_api_docs.py [OUT]        # OUT defaults to docs/api

The pages document the installed package's public modules, with the pure-Python hot
path selected so that signatures carry their type annotations. Exits non-zero when a
public module's page is missing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Before diverge_frames is imported: the compiled functions have no annotations.
os.environ["DIVERGE_FRAMES_NO_EXTENSIONS"] = "1"

import pdoc
import pdoc.render

#: The package (its ``__all__`` brings notifications, read_resource and types) and the
#: other public modules.
MODULES = [
    "diverge_frames",
    "diverge_frames.errors",
    "diverge_frames.channel",
    "diverge_frames.aio",
    "diverge_frames.capture",
]
#: A page for each public module.
PAGES = [
    *MODULES,
    "diverge_frames.notifications",
    "diverge_frames.read_resource",
    "diverge_frames.types",
]


def main(argv: list[str]) -> int:
    """Render :data:`MODULES` to ``argv[0]`` (default ``docs/api``); check :data:`PAGES`."""
    out = Path(argv[0] if argv else "docs/api")
    pdoc.render.configure(docformat="restructuredtext", show_source=False, search=True)
    pdoc.pdoc(*MODULES, output_directory=out)
    missing = [m for m in PAGES if not (out / (m.replace(".", "/") + ".html")).is_file()]
    if missing or not (out / "index.html").is_file():
        print(f"build_api_docs: no page for {missing or 'index'} in {out}", file=sys.stderr)
        return 1
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"API reference: {len(PAGES)} modules, {size // 1024} KiB in {out}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
