"""A public module's ``__dir__``: its public names, not its helpers."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence


def public_dir(
    names: Sequence[str],
    submodules: Sequence[str] = (),
    namespace: Mapping[str, object] | None = None,
) -> Callable[[], list[str]]:
    """The module ``__dir__`` that lists ``names`` (the module's ``__all__``).

    ``dir(module)`` then shows what the module offers, not the helpers it imports. A
    package passes its public ``submodules`` and its ``namespace`` (``globals()``): those
    imported so far are listed too.
    """

    def __dir__() -> list[str]:
        loaded = [m for m in submodules if namespace is not None and m in namespace]
        return [*names, *(m for m in loaded if m not in names)]

    return __dir__
