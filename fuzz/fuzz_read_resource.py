#!/usr/bin/env python3
"""atheris target: read-resource channel payloads (see ``_harness.py`` for the checks).

Run: ``DIVERGE_FRAMES_FUZZ_IMPL=cython python fuzz/fuzz_read_resource.py fuzz/corpus/read_resource/
-max_total_time=60`` (any libFuzzer flags), or ``scripts/fuzz.sh``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import main

if __name__ == "__main__":
    main("read_resource")
