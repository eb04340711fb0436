"""``olmtui check`` on a small instance of the bench's synthetic cluster (bench/gen_snapshot.py):
the counts follow from its shape, so every copy and group is accounted for (R-COPY-3)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

from data_paths import ROOT
from report_records import validate_report

from olmtui.cli import main

sys.path.insert(0, str(ROOT / "bench"))
from gen_snapshot import Sizes, generate


def test_r_copy_3_every_global_operator_is_copied_into_every_other_namespace(
    tmp_path: Path,
) -> None:
    sizes = Sizes(namespaces=40, global_operators=3, single_operators=10, subscriptions=16)
    generated = generate(tmp_path, sizes)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(tmp_path), "--output", "json"])
    report = json.loads(out.getvalue())
    validate_report(report)
    assert status == 0
    assert generated.copies == 3 * 39
    summary = {k: v for k, v in report["summary"].items() if k not in ("findings", "metrics")}
    assert summary == {
        "namespaces": 40,
        "operatorGroups": 11,
        "csvs": 13,
        "copiedCSVs": 117,
        "subscriptions": 16,
        "installPlans": 16,
        "catalogSources": 1,
        # no catalog content: every installed Subscription's head is unknown, none "behind"
        "subscriptionsBehindHead": 0,
        "subscriptionsHeadUnknown": 13,
        # no finding here follows from another: one incident each
        "incidents": {"error": 0, "warning": 6, "info": 3},
    }
    assert report["copiedCSVs"]["missing"] == [] and report["copiedCSVs"]["stale"] == []
    for csv in report["csvs"]:
        if csv["namespace"] == "openshift-operators":
            assert len(csv["expectedCopies"]) == 39
        else:  # a group of its own namespace only: no copies (R-COPY-2)
            assert csv["expectedCopies"] == []
        assert csv["verdict"] is None and csv["conflicts"] == []
