"""The ``/`` filter: k9s semantics, and the narrowing and the kept answers that make typing
fast over a hundred thousand rows give exactly what a full scan gives."""

from __future__ import annotations

from importlib.resources import files

from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.screens.csvs import CSVsScreen
from olmtui.ui.widgets.row_filter import KEPT, RowFilter, parse_query
from olmtui.ui.widgets.virtual_table import Row

SAMPLE_ROWS = [
    "team-a etcdoperator.v0.9.4 0.9.4 failed interoperatorgroupownerconflict",
    "team-b etcdoperator.v0.9.4 0.9.4 succeeded installsucceeded",
    "openshift-operators keycloak-operator.v26.6.2 26.6.2 succeeded",
    "app-04207 operator-001.v1.0.0 1.0.0 copied copy of openshift-operators",
    "app-04200 operator-001.v1.0.0 1.0.0 copied copy of openshift-operators",
]


def full_scan(haystacks: list[str], query: str) -> list[int]:
    """The definition: substring, case-insensitive; a leading ``!`` inverts."""
    parsed = parse_query(query)
    if parsed is None:
        return list(range(len(haystacks)))
    needle, invert = parsed
    return [i for i, h in enumerate(haystacks) if (needle in h) != invert]


def test_empty_and_bare_bang_queries_keep_every_row():
    rows = RowFilter(SAMPLE_ROWS)
    assert rows.matches("") is None
    assert rows.matches("   ") is None
    assert rows.matches("!") is None
    assert rows.matches("! ") is None


def test_filter_is_case_insensitive_substring_and_bang_inverts():
    rows = RowFilter(SAMPLE_ROWS)
    assert rows.matches("ETCD") == [0, 1]
    assert rows.matches("!etcd") == [2, 3, 4]
    assert rows.matches("! etcd ") == [2, 3, 4]


def test_typing_narrows_among_the_rows_the_shorter_needle_kept():
    # a haystack list that fails if read outside the rows "app-0420" kept
    class Guarded(list):
        allowed: set[int] = set(range(len(SAMPLE_ROWS)))

        def __getitem__(self, index):
            assert index in self.allowed, f"row {index} scanned again"
            return super().__getitem__(index)

    hay = Guarded(SAMPLE_ROWS)
    rows = RowFilter(hay)
    assert rows.matches("app-0420") == [3, 4]
    Guarded.allowed = {3, 4}
    assert rows.matches("app-04207") == [3]
    assert rows.matches("app-0420") == [3, 4]  # Backspace: the kept answer


def test_inverted_needle_narrows_when_it_shrinks():
    rows = RowFilter(SAMPLE_ROWS)
    assert rows.matches("!team-a") == [1, 2, 3, 4]
    assert rows.matches("!team") == [2, 3, 4]  # lacking "team" implies lacking "team-a"
    assert rows.matches("!team-") == [2, 3, 4]


def test_answers_kept_are_bounded():
    rows = RowFilter(SAMPLE_ROWS)
    for n in range(KEPT + 10):
        rows.matches(f"needle-{n}")
    assert len(rows._answers) == KEPT


needles = st.text(alphabet="ab-!", max_size=5)


@settings(max_examples=300, deadline=None)
@given(
    haystacks=st.lists(st.text(alphabet="ab-", max_size=8), max_size=30),
    queries=st.lists(needles, max_size=25),
)
def test_any_sequence_of_queries_answers_as_a_full_scan(haystacks, queries):
    rows = RowFilter(haystacks)
    for query in queries:
        answer = rows.matches(query)
        assert (list(range(len(haystacks))) if answer is None else answer) == full_scan(
            haystacks, query
        )


def test_r_copy_1_copied_csv_rows_carry_the_haystack_of_their_cells():
    """The CSV view builds a copy row's haystack from its shared cells once per source CSV;
    it must match what the cells say (the sample's global group copies into every
    namespace)."""
    session = snapshot_session([str(files("olmtui").joinpath("samples", "cluster.yaml"))], [])
    screen = CSVsScreen(session)
    screen.show_copies = True
    copies = [r for r in screen.build_rows() if r.key[0] == "copy"]
    assert copies
    for row in copies:
        assert row.search
        assert row.haystack() == Row(row.key, row.cells).haystack()
