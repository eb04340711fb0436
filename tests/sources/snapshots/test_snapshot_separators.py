"""Documents are cut where ``_SEPARATOR_AFTER_LF`` matches, found with ``bytes.find``
(``snapshot_documents._separators``): the same places as the regular expression, on any
bytes, and the documents keep their first lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from olmtui.sources.snapshots import snapshot_documents
from olmtui.sources.snapshots.snapshot_documents import parse_documents

PIECES = st.sampled_from(
    [b"\n", b"---", b"\n---", b"\n--- ", b"\n---\t", b"\n---\r\n", b"----", b"a", b" ", b"-"]
)


@given(st.lists(PIECES | st.binary(max_size=4), max_size=30).map(b"".join))
def test_separators_are_where_the_expression_finds_them(data: bytes) -> None:
    expected = [m.start() + 1 for m in snapshot_documents._SEPARATOR_AFTER_LF.finditer(data)]
    assert list(snapshot_documents._separators(data)) == expected


def test_each_document_keeps_its_first_line() -> None:
    data = b"---\na: 1\n---\n\nb: [\n---\nc: 3\n--- \nd: 4\n"
    documents = list(parse_documents(data, json_format=False))
    assert [d.line for d in documents] == [1, 3, 6, 8]
    assert documents[1].problem is not None and documents[1].problem.startswith("line 6, column 1")
    assert [d.value for d in documents if d.problem is None] == [{"a": 1}, {"c": 3}, {"d": 4}]
