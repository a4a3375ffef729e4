"""The benchmarks of diverge-frames (in the source repository, not in the package).

* :mod:`benchmarks.matrix`: the peer matrix, ``python -m benchmarks.matrix`` (from the
  repository's root): our two twins, msgspec alone, mcp-types, orjson and rmcp
  (``rmcp-bench/``, Rust), on synthetic, real and long-text frames, fresh payloads and
  the relay loop, interleaved on thread CPU time. Its parts: :mod:`~benchmarks.cases`
  (the frames), :mod:`~benchmarks.peers` (what each implementation runs),
  :mod:`~benchmarks.relay` (the relay loops), :mod:`~benchmarks.rmcp` (building and
  driving rmcp-bench), :mod:`~benchmarks.timing` (clocks and rounds),
  :mod:`~benchmarks.memory` (the 64 MiB blob's peak memory), :mod:`~benchmarks.report`
  (the tables).
* ``test_bench_frames.py``: the same cases under pytest-benchmark
  (``python -m pytest benchmarks``).
* ``scripts/bench_guard.py``, the CI speed guard, runs the matrix's small frames.

Method and results: ``docs/performance.md``.
"""
