"""Build the compiled twins (``diverge_frames._frames_c``, the hot path, and
``diverge_frames._channel_c``, the sequence rules) when possible.

Without Cython or a C compiler the install still succeeds, pure Python, as aio-libs
packages do, and a wheel built so is tagged ``py3-none-any``, like one built with
``DIVERGE_FRAMES_NO_EXTENSIONS=1``, which skips the extension on purpose.
``DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1`` makes a failed build an error (CI, wheels).

GCC and Clang build the extensions without debug info (``-g0`` after CPython's own
flags, which have ``-g``) unless ``CFLAGS`` asks for it: ``CFLAGS=-g`` (or ``-g3``,
``-ggdb``...) keeps it, for a debugger or the sanitizers.
"""

import os
import shlex
import sys

from setuptools import Extension, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext

NO_EXTENSIONS = bool(os.environ.get("DIVERGE_FRAMES_NO_EXTENSIONS"))
REQUIRE_EXTENSIONS = bool(os.environ.get("DIVERGE_FRAMES_REQUIRE_EXTENSIONS"))


def debug_info_asked(cflags):
    """Whether these compiler flags ask for debug info.

    They do when the last ``-g...`` among them is not ``-g0`` (GCC and Clang obey the
    last one).
    """
    levels = [flag for flag in shlex.split(cflags) if flag.startswith("-g")]
    return bool(levels) and levels[-1] != "-g0"


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to pure Python when compiling fails.

    It also leaves out debug info unless ``CFLAGS`` asks for it.
    """

    def build_extensions(self):
        # CPython's CFLAGS (sysconfig) have -g, which gives a 2.5 MB _frames_c with
        # debug info; flags given here come after them, so -g0 wins. Not for MSVC,
        # whose release builds have no debug info and which does not know -g0.
        if self.compiler.compiler_type in ("unix", "mingw32", "cygwin") and not (
            debug_info_asked(os.environ.get("CFLAGS", ""))
        ):
            for ext in self.extensions:
                ext.extra_compile_args = [*(ext.extra_compile_args or []), "-g0"]
        super().build_extensions()

    # Any failure to compile (no compiler, no Python headers, a compiler error: setuptools
    # raises several unrelated types) means a pure-Python install, so catch them all.
    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001
            self._give_up("the extensions", exc, self.distribution.ext_modules)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._give_up(ext.name, exc, [ext])

    def _give_up(self, name, exc, extensions):
        if REQUIRE_EXTENSIONS:
            raise exc
        print(
            f"WARNING: {name} not built ({exc}); its pure-Python twin will be used",
            file=sys.stderr,
        )
        # What was not built is no longer part of the distribution: PureFallbackWheel
        # then tags the wheel py3-none-any.
        self.distribution.ext_modules = [
            e for e in self.distribution.ext_modules or [] if e not in extensions
        ]


class PureFallbackWheel(bdist_wheel):
    """``bdist_wheel`` that tags the wheel by what was built: ``py3-none-any`` when every
    extension fell back to pure Python, never this platform's tag."""

    def run(self):
        # bdist_wheel picks purity from the extensions declared, before building;
        # build first and decide from what is left (OptionalBuildExt drops a failure).
        if not self.skip_build:
            self.run_command("build")
        self.root_is_pure = not (
            self.distribution.has_ext_modules() or self.distribution.has_c_libraries()
        )
        super().run()


def extensions():
    if NO_EXTENSIONS:
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        if REQUIRE_EXTENSIONS:
            raise
        print("WARNING: Cython not found; installing pure Python", file=sys.stderr)
        return []
    frames = Extension(
        "diverge_frames._frames_c",
        ["src/diverge_frames/_frames_c.pyx"],
        # The C and Cython it includes: a change there rebuilds the extension.
        depends=[
            "src/diverge_frames/_common.h",
            "src/diverge_frames/_capi.h",
            "src/diverge_frames/_scan.h",
            "src/diverge_frames/_strings.h",
            "src/diverge_frames/_strings_base.h",
            "src/diverge_frames/_strings_swar.h",
            "src/diverge_frames/_strings_sse2.h",
            "src/diverge_frames/_strings_avx2.h",
            "src/diverge_frames/_strings_avx512.h",
            "src/diverge_frames/_transcode_avx2.h",
            "src/diverge_frames/_transcode_avx512.h",
            "src/diverge_frames/_strings_loops.h",
            "src/diverge_frames/_strings_keys.h",
            "src/diverge_frames/_strings.pxi",
            "src/diverge_frames/_public.pxi",
            "src/diverge_frames/_check.h",
            "src/diverge_frames/_check_plans.pxi",
            "src/diverge_frames/_serde_json.h",
            "src/diverge_frames/_serde_json_number.h",
            "src/diverge_frames/_write_f64.h",
            "src/diverge_frames/_write_error.h",
            "src/diverge_frames/_serde_json_tokens.h",
            "src/diverge_frames/_serde_json_scan.h",
            "src/diverge_frames/_serde_json_glance.h",
            "src/diverge_frames/_serde_json_glance_loop.h",
            "src/diverge_frames/_serde_json_glance_sse2.h",
            "src/diverge_frames/_serde_json_glance_avx2.h",
            "src/diverge_frames/_pow10.h",
            "src/diverge_frames/_precheck.pxi",
            "src/diverge_frames/_rmcp_items.h",
            "src/diverge_frames/_rmcp_plain.h",
            "src/diverge_frames/_items.pxi",
            "src/diverge_frames/_plain.pxi",
            "src/diverge_frames/_encode.pxi",
        ],
        include_dirs=["src/diverge_frames"],
    )
    channel = Extension(
        "diverge_frames._channel_c",
        ["src/diverge_frames/_channel_c.pyx"],
        depends=["src/diverge_frames/_channel.h"],
        include_dirs=["src/diverge_frames"],
    )
    return cythonize([frames, channel], compiler_directives={"language_level": "3"})


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": OptionalBuildExt, "bdist_wheel": PureFallbackWheel},
)
