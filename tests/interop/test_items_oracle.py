"""rmcp judges the item rule of a result's ``contents``: generated bodies, both twins.

Bodies of repeated members (``text``, ``blob``, ``uri``, ``mimeType``, ``_meta``, some
spelled with escapes), items failing validation, text and blob together, beside the other
top-level members; rmcp's verdict and re-encoding against each twin's. Skipped unless the
oracle is built (``tests/interop/test_oracle.py`` says how); ``DIVERGE_FRAMES_ORACLE_SEED``
(default 1) seeds the bodies.
"""

from __future__ import annotations

import os
import random
from types import ModuleType

import pytest
from rmcp_diff import READ_RESOURCE, Case, disagreement, oracle_available, ours, run_oracle

SEED = int(os.environ.get("DIVERGE_FRAMES_ORACLE_SEED", "1"))
_KEYS = ["uri", "mimeType", "text", "blob", "_meta", "t\\u0065xt", "\\u0062lob", "x"]
_VALUES = ['"u"', '"t"', '""', "1", "-0", "null", "{}", '{"a":1}', "[]", "true", "1e400"]
_OTHER_ITEMS = ["[]", '["u",null,"t"]', "1", "null"]
_TOP = [
    '"ttlMs":-5',
    '"ttlMs":3',
    '"cacheScope":"private"',
    '"cacheScope":{"public":null}',
    '"resultType":"r"',
    '"zz":{"text":[1]}',
    '"_meta":{"k":-0}',
]


def _item(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(_OTHER_ITEMS)
    pairs = [(rng.choice(_KEYS), rng.choice(_VALUES)) for _ in range(rng.randint(0, 7))]
    if rng.random() < 0.7:  # mostly items that may read: a uri and a text or blob first
        pairs.insert(0, ("uri", '"u"'))
        pairs.insert(rng.randint(0, len(pairs)), (rng.choice(["text", "blob"]), '"v"'))
    return "{" + ",".join(f'"{k}":{v}' for k, v in pairs) + "}"


def _cases(count: int) -> list[Case]:
    rng = random.Random(SEED)
    cases = []
    for i in range(count):
        items = ",".join(_item(rng) for _ in range(rng.randint(0, 4)))
        members = [f'"contents":[{items}]', *rng.sample(_TOP, rng.randint(0, 2))]
        rng.shuffle(members)
        body = "{" + ",".join(members) + "}"
        cases.append(Case(f"items/{i}", READ_RESOURCE, b"\x00" + body.encode()))
    return cases


@pytest.mark.skipif(not oracle_available(), reason="rmcp oracle not built")
def test_generated_items_against_rmcp(twins: tuple[ModuleType, ModuleType]) -> None:
    cases = _cases(3000)
    problems = []
    verdicts = set()
    for case, rmcp in zip(cases, run_oracle(cases), strict=True):
        verdicts.add(rmcp.verdict)
        for frames in twins:
            problem = disagreement(ours(frames, case), rmcp)
            if problem is not None:
                problems.append(f"{frames.__name__}: {case.payload!r}: {problem}")
    assert verdicts == {"ok", "body"}  # both kinds among the cases
    assert not problems, f"{len(problems)} problems, e.g. {problems[:5]}"
