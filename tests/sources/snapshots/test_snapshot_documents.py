"""Splitting files into documents: one broken document never loses the others, and every
document knows the line it starts on."""

from __future__ import annotations

from olmtui.sources.snapshots.snapshot_documents import Document, parse_documents


def yaml_docs(text: str) -> list[Document]:
    return list(parse_documents(text.encode(), json_format=False))


def json_docs(text: str) -> list[Document]:
    return list(parse_documents(text.encode(), json_format=True))


def test_yaml_documents_start_lines_counted_from_separators() -> None:
    docs = yaml_docs("a: 1\n---\nb: 2\nc: 3\n---\n\n# only a comment\n--- {d: 4}\n")
    assert [(d.line, d.value) for d in docs] == [
        (1, {"a": 1}),
        (2, {"b": 2, "c": 3}),
        (5, None),
        (8, {"d": 4}),
    ]


def test_yaml_leading_separator_as_in_must_gathers() -> None:
    docs = yaml_docs("---\napiVersion: v1\nkind: Namespace\n")
    assert [(d.line, d.value) for d in docs] == [(1, {"apiVersion": "v1", "kind": "Namespace"})]


def test_yaml_separator_needs_line_start_and_a_break_after_it() -> None:
    docs = yaml_docs("a: '---'\nb: ---x\n---x: 1\n")
    assert [d.value for d in docs] == [{"a": "---", "b": "---x", "---x": 1}]


def test_yaml_broken_document_reported_with_file_line_and_rest_kept() -> None:
    docs = yaml_docs("a: 1\n---\nb: 2\nc: [unclosed\n---\nd: 4\n")
    assert docs[0].value == {"a": 1}
    assert docs[1].value is None
    assert docs[1].line == 2
    assert docs[1].problem is not None
    assert docs[1].problem.startswith("line 5, column 1: ")
    assert "expected" in docs[1].problem
    assert (docs[2].line, docs[2].value, docs[2].problem) == (5, {"d": 4}, None)


def test_yaml_error_line_is_absolute_not_within_the_document() -> None:
    docs = yaml_docs("x: 1\n---\na: 1\n b: 2\n")
    assert docs[1].problem is not None
    assert docs[1].problem.startswith("line 4, column 3: mapping values are not allowed")


def test_yaml_impossible_date_is_a_problem_not_a_crash() -> None:
    docs = yaml_docs("when: 2021-13-45\n---\nok: true\n")
    assert docs[0].problem == "line 1: month must be in 1..12"
    assert docs[1].value == {"ok": True}


def test_binary_bytes_are_a_problem_not_a_crash() -> None:
    docs = list(parse_documents(b"\x7fELF\x02\x01\x01\x00\x00\xff\xfe", json_format=False))
    assert len(docs) == 1
    assert docs[0].problem is not None
    assert docs[0].problem.startswith("line 1")


def test_empty_yaml_file_holds_one_empty_document() -> None:
    assert yaml_docs("") == [Document(1, None)]


def test_json_single_object_and_list() -> None:
    assert [d.value for d in json_docs('{"a": 1}')] == [{"a": 1}]
    assert [d.value for d in json_docs("[1, 2]\n")] == [[1, 2]]


def test_json_stream_of_concatenated_objects_with_lines() -> None:
    docs = json_docs('{"a": 1}{"b": 2}\n\n{\n  "c": 3\n}\n')
    assert [(d.line, d.value) for d in docs] == [(1, {"a": 1}), (1, {"b": 2}), (3, {"c": 3})]


def test_json_lines_broken_line_skipped_and_stream_resumes() -> None:
    docs = json_docs('{"a": 1}\n{"b": \n{"c": 3}\n')
    assert docs[0].value == {"a": 1}
    assert docs[1].problem is not None
    assert docs[1].line == 2
    # the broken value swallowed line 3 and ran into the end of the text on line 4
    assert docs[1].problem.startswith("line 4, column 1: ")
    assert docs[2:] == []
    docs = json_docs('{"a": 1}\n{"b": ]\n{"c": 3}\n')
    assert [(d.line, d.value) for d in docs if d.problem is None] == [(1, {"a": 1}), (3, {"c": 3})]


def test_json_not_utf8_is_a_problem() -> None:
    docs = list(parse_documents(b'{"a": "\xff"}', json_format=True))
    assert len(docs) == 1
    assert docs[0].problem is not None
    assert "UTF-8" in docs[0].problem


def test_json_empty_file_holds_nothing() -> None:
    assert json_docs("  \n") == []
