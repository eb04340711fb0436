"""R-SRC-1 live: while the OperatorGroups are still being listed, a namespace's
``olm.operatorgroup.uid`` label is not called drift (no group read yet is no group); once
the sync has listed them, what is really missing is said."""

from __future__ import annotations

from pathlib import Path

from conftest import wait_for
from live_support import fast_options, start_server, started_source, stop_source
from model_builders import namespace, operator_group

from olmtui.kinds import NAMESPACE
from olmtui.model.incremental.engine import Model
from olmtui.pipeline.build import live_partial
from olmtui.pipeline.session import Session
from olmtui.store import Store


async def test_a_sync_in_progress_says_nothing_missing_of_the_kinds_not_listed(tmp_path: Path):
    objs = [
        namespace("a", {"olm.operatorgroup.uid/gone": ""}),
        namespace("n"),
        operator_group("n", "g", targets=["n"], status=["n"]),
    ]
    server, kubeconfig = await start_server(tmp_path, objs)
    server.hold_lists("operatorgroups", True)
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    session = Session(store, Model(store), "live", "test")
    session.partial = lambda: live_partial(source)
    try:
        only_groups = ("live sync not finished (OperatorGroup)",)
        await wait_for(
            lambda: session.input_partial().reasons == only_groups, "all but groups listed"
        )
        assert store.count(NAMESPACE) == 2
        codes = {f.code for f in session.analysis.all_findings()}
        assert "NamespaceLabelDrift" not in codes
        server.hold_lists("operatorgroups", False)
        await wait_for(lambda: not session.input_partial().partial, "sync finished")
        codes = {f.code for f in session.analysis.all_findings()}
        assert "NamespaceLabelDrift" in codes and "InputIncomplete" not in codes
    finally:
        server.hold_lists("operatorgroups", False)
        await stop_source(source, task)
        await server.stop()
