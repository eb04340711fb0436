"""The header says the context first: the OLM version the input shows and, while the
input is partial, that it is incomplete and why (R-SRC-1)."""

from __future__ import annotations

from model_builders import clusteroperator, clusterversion, model_of

from olmtui.pipeline.input_state import syncing_partial
from olmtui.pipeline.session import Session
from olmtui.ui.widgets.source_header import header_text


def test_the_header_names_openshift_and_olm_and_says_when_input_is_incomplete():
    model, store = model_of(
        clusterversion(("Completed", "4.16.3")),
        clusteroperator("True", None, "", versions=[("operator-lifecycle-manager", "0.28.0")]),
    )
    session = Session(store, model, "snapshot", "mg")
    plain = header_text(session, "Overview", 200).plain
    assert "OpenShift 4.16.3 · OLM 0.28.0" in plain
    assert "input incomplete" not in plain
    session.partial = lambda: syncing_partial(["OperatorGroup"])
    plain = header_text(session, "Overview", 200).plain
    assert plain.endswith(" · input incomplete: live sync not finished (OperatorGroup)")
