"""R-EVD-10 in ``olmtui replay``: a must-gather streamed into the dashboard's store off the
loop brings its OLM log lines along, as ``check``'s load does."""

from __future__ import annotations

from data_paths import DATA

from olmtui.pipeline.streaming import Loading, stream_into
from olmtui.sources.snapshots.snapshot import list_snapshot
from olmtui.store import Store

MUST_GATHER = DATA / "logs" / "must-gather-logs"


async def test_a_streamed_must_gather_keeps_its_log_lines_in_the_target_store() -> None:
    store = Store()
    result = await stream_into(store, list_snapshot([MUST_GATHER]), Loading())()
    assert result is not None
    assert len(store.logs.files) == 4 and len(store.logs) == 12
    assert store.logs.naming("openshift-operators", "etcd", 5)
