"""The documentation site (docs/conf.py) has an API page for every public module.

The site itself is built by ``.ci/run`` (Sphinx, warnings as errors); this holds the
list of pages to the package, so that a new public module cannot go undocumented.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "diverge_frames"
REFERENCE = ROOT / "docs" / "reference"


def test_every_public_module_has_an_api_page() -> None:
    public = {"diverge_frames"} | {
        f"diverge_frames.{p.stem}" for p in PACKAGE.glob("*.py") if not p.stem.startswith("_")
    }
    documented = {
        m
        for page in REFERENCE.glob("*.rst")
        for m in re.findall(r"^\.\. automodule:: (\S+)$", page.read_text(encoding="utf-8"), re.M)
    }
    assert "diverge_frames.notifications" in public  # the glob finds the modules
    assert documented == public


def test_every_api_page_is_in_the_reference_index() -> None:
    index = (REFERENCE / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^(\w+)$", index.split("```{toctree}")[1], re.M))
    assert listed == {p.stem for p in REFERENCE.glob("*.rst")}
