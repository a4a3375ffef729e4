"""Write the starting corpus of both fuzz targets from the test data.

``python fuzz/seed_corpus.py OUT`` writes ``OUT/notifications/`` and
``OUT/read_resource/``: every real frame of ``tests/data/corpus`` and
``tests/data/edge-cases`` under 64 KiB (with its tag byte), one minimal frame of each
notification type and a few malformed ones. The committed ``fuzz/corpus/`` is what
libFuzzer kept of these and what it found (``-merge=1``).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
LIMIT = 64 * 1024

NOTIFICATIONS = [
    b'{"method":"notifications/cancelled","params":{"requestId":1,"reason":"r"}}',
    b'{"method":"notifications/progress","params":{"progressToken":"t","progress":1,"total":2.5,"message":"m"}}',
    b'{"method":"notifications/message","params":{"level":"info","logger":"l","data":{"a":[1,null]}}}',
    b'{"method":"notifications/resources/updated","params":{"uri":"file:///x"}}',
    b'{"method":"notifications/resources/list_changed","params":{"_meta":{"k":1}}}',
    (
        b'{"method":"notifications/subscriptions/acknowledged","params":{"notifications":'
        b'{"toolsListChanged":true,"resourceSubscriptions":["a"]}}}'
    ),
    (
        b'{"method":"notifications/tasks","params":{"taskId":"t","status":"completed","createdAt":"a",'
        b'"lastUpdatedAt":"b","ttlMs":null,"result":{}}}'
    ),
    (
        b'{"method":"notifications/tasks/status","params":{"taskId":"t","status":"working",'
        b'"createdAt":"a","lastUpdatedAt":"b","ttl":null,"pollInterval":5}}'
    ),
    b'{"method":"notifications/elicitation/complete","params":{"elicitationId":"e"}}',
    b'{"method":"x/y","params":{"_meta":{"z":1},"b":[1.5,-0.0,"\\u2028"]}}',
]
RESULTS = [
    b'{"contents":[{"uri":"a","text":"t"},{"uri":"b","mimeType":"m","blob":"AA=="}]}',
    b'{"resultType":"complete","ttlMs":-5,"cacheScope":"public","contents":[],"_meta":{}}',
]
ERRORS = [b'{"code":-32602,"message":"m","data":{"x":[true,false,null]}}']
JUNK = [b"", b"\x00", b"\x01", b"\x02{}", b"\x00{", b"\x00[]", b"\x01null"]


def _frames() -> dict[str, list[bytes]]:
    out: dict[str, list[bytes]] = {"notifications": [], "read_resource": []}
    for path in sorted((DATA / "corpus").glob("*/*.jsonl")):
        for line in path.read_bytes().splitlines():
            if not line.strip() or len(line) > LIMIT:
                continue
            if path.name == "notifications.jsonl":
                out["notifications"].append(b"\x00" + line)
            elif path.name == "read_resource_results.jsonl":
                out["read_resource"].append(b"\x00" + line)
            else:
                out["notifications"].append(b"\x01" + line)
                out["read_resource"].append(b"\x01" + line)
    for path in sorted((DATA / "edge-cases").glob("*.json")):
        body = path.read_bytes()
        number = int(path.name[:2])
        if 13 <= number <= 16:
            out["notifications"].append(b"\x01" + body)
            out["read_resource"].append(b"\x01" + body)
        elif number in (10, 12):
            out["read_resource"].append(b"\x00" + body)
        else:
            out["notifications"].append(b"\x00" + body)
    out["notifications"] += [b"\x00" + b for b in NOTIFICATIONS] + [b"\x01" + b for b in ERRORS]
    out["read_resource"] += [b"\x00" + b for b in RESULTS] + [b"\x01" + b for b in ERRORS]
    for frames in out.values():
        frames += JUNK
    return out


def main(out: Path) -> None:
    for channel, frames in _frames().items():
        folder = out / channel
        folder.mkdir(parents=True, exist_ok=True)
        for frame in frames:
            (folder / hashlib.sha1(frame).hexdigest()).write_bytes(frame)
        print(f"{folder}: {len(set(frames))} seeds")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
