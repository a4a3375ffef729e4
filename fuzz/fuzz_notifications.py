#!/usr/bin/env python3
"""atheris target: notifications channel payloads (see ``_harness.py`` for the checks).

Run: ``DIVERGE_FRAMES_FUZZ_IMPL=cython python fuzz/fuzz_notifications.py fuzz/corpus/notifications/
-max_total_time=60`` (any libFuzzer flags), or ``scripts/fuzz.sh``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import main

if __name__ == "__main__":
    main("notifications")
