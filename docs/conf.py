"""Sphinx configuration of the documentation site: furo, MyST, an API reference.

Build (a Python with ``docs/requirements.txt`` and diverge-frames installed)::

    python -m sphinx -W --keep-going -n -b html docs docs/_build/html

``-W`` makes a warning an error, ``nitpicky`` (set below, as ``-n``) makes a
cross-reference that resolves nowhere one, and MyST warns of a link to a page or heading that does not
exist, so a build that passes has no broken internal link. No network is used.
"""

from __future__ import annotations

import os
from typing import Any

# Before diverge_frames is imported: the compiled functions carry no annotations, the
# pure-Python twin's do, and both have the same docstrings.
os.environ["DIVERGE_FRAMES_NO_EXTENSIONS"] = "1"

import diverge_frames

project = "diverge-frames"
author = "diverge-frames developers"
copyright = "diverge-frames developers"
release = version = diverge_frames.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "api", "requirements.txt", "README.md"]

# MyST: the guide pages are GitHub-flavoured Markdown; headings get anchors so that
# "page.md#heading" links resolve (and are checked).
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

# The API reference: annotations in the signature, members in source order.
autodoc_typehints = "signature"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_preserve_defaults = True
add_module_names = False

# Every cross-reference must resolve (as -n does), wherever the site is built.
nitpicky = True
# Cross-references to names the site does not document (the standard library, msgspec,
# the MCP SDK): there is no network for intersphinx, so they are named here rather
# than left to fail the nitpicky build.
nitpick_ignore_regex = [
    # private names: a base class or module of the implementation, not documented
    (r"py:.*", r"diverge_frames\.(\w+\.)*_\w+(\..*)?"),
    (r"py:.*", r"(typing|collections\.abc|types|enum|asyncio|contextlib|io|os)\..*"),
    (r"py:.*", r"(msgspec|mcp|mcp_types|pydantic)(\..*)?"),
    (r"py:class", r"(bytes|bytearray|memoryview|str|int|float|bool|dict|list|tuple|object)"),
    (r"py:class", r"(Any|IO|Literal|Iterable|Iterator|AsyncIterable|AsyncIterator|Callable)"),
]

html_theme = "furo"
html_title = f"diverge-frames {release}"
html_static_path = ["_static"]
html_theme_options = {
    "source_repository": "https://github.com/diverge-frames/diverge-frames/",
    "source_branch": "main",
    "source_directory": "docs/",
}


def _short_type_names(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Link a docstring's bare class name to the class in :mod:`diverge_frames.types`.

    E.g. ``:class:`ErrorData``` in a module that imports it from there."""
    from sphinx.errors import NoUri

    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or "." in target or not hasattr(diverge_frames.types, target):
        return None
    node["reftarget"] = f"diverge_frames.types.{target}"
    try:
        return env.domains["py"].resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], node["reftarget"], node, contnode
        )
    except NoUri:
        return None


def setup(app: Any) -> None:
    """JSON Lines fences (captures) highlighted as JSON; short type names resolved."""
    from pygments.lexers.data import JsonLexer

    app.add_lexer("jsonl", JsonLexer)
    app.connect("missing-reference", _short_type_names)
