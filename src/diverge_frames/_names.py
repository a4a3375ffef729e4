"""A public module's ``__dir__``: its public names, not its helpers."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def public_dir(names: Sequence[str]) -> Callable[[], list[str]]:
    """The module ``__dir__`` that lists ``names`` (the module's ``__all__``).

    ``dir(module)`` then shows what the module offers, not the helpers it imports.
    """

    def __dir__() -> list[str]:
        return list(names)

    return __dir__
