"""The header line: the source always, and live the connection state and the age of the
last event, also on an 80-column terminal; never markup."""

from __future__ import annotations

from olmtui.model.incremental.engine import Model
from olmtui.pipeline.session import ConnectionState, Session
from olmtui.store import Store
from olmtui.ui.widgets.source_header import header_text


def _session(label: str, status: ConnectionState | None) -> Session:
    store = Store()
    return Session(
        store,
        Model(store),
        "live" if status else "snapshot",
        label,
        status=(lambda: status) if status else None,
    )


def test_live_header_keeps_state_and_age_on_80_columns():
    status = ConnectionState(
        "reconnecting", "CatalogSource stream: connection reset", last_event_age=75.0
    )
    text = header_text(
        _session("admin@prod-cluster-with-a-long-context-name", status), "Operators (CSVs)", 80
    )
    text.truncate(80)
    plain = text.plain
    assert "reconnecting" in plain
    assert "last event 1m ago" in plain
    assert "live: " in plain
    assert "…" in plain and "-name │" in plain  # the end of a long label survives


def test_snapshot_header_keeps_the_end_of_a_long_path():
    path = "/very/long/path/to/some/must-gather.local.5521/quay-io-openshift/must-gather-azure"
    plain = header_text(_session(path, None), "Overview", 80).plain
    assert plain.endswith("must-gather-azure")
    assert "…" in plain
    assert "last event" not in plain


def test_header_never_parses_markup_in_labels():
    status = ConnectionState("live", "[bold]detail[/bold]", last_event_age=None)
    text = header_text(_session("[red]ctx[/red]", status), "Overview", 200)
    assert "[red]ctx[/red]" in text.plain
    assert "[bold]detail[/bold]" in text.plain
    assert "no events yet" in text.plain


def test_namespace_session_header_says_what_was_read():
    """R-DOC-10: a --namespace session says so, so that absent rows read as unknown."""
    session = _session("ctx", ConnectionState("live", last_event_age=3.0))
    session.store.read_namespaces = frozenset({"team-b", "team-a"})
    plain = header_text(session, "Overview", 200).plain
    assert "read: namespaces team-a, team-b only" in plain
    session.store.read_namespaces = None
    assert "read: namespaces" not in header_text(session, "Overview", 200).plain
