"""``olmtui check --output json`` writes its report in pieces, built as written (so that
``check`` stays under 1 GB on any input of 100 MB or less), and the bytes stay those of
``json.dumps(report, indent=2, ensure_ascii=False)`` made inert."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

import pytest
from data_paths import TESTS

from olmtui.cli import build_parser, main
from olmtui.commands.check import check
from olmtui.pipeline.build import sample_session, snapshot_session
from olmtui.report.json_report import Entries, dump_json, dumps, report_json, write_json
from olmtui.report.text_report import render_text, write_text

HOSTILE = TESTS / "data" / "hostile"


class Recorder(io.StringIO):
    """stdout that remembers the length of each write."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def write(self, text: str) -> int:
        self.sizes.append(len(text))
        return super().write(text)


def _groups(path: Path, count: int) -> Path:
    """``count`` OperatorGroups, each in a namespace without a Namespace object and with a
    status that lags its spec: a group entry, a TargetsNotSynced finding and an inferred
    Namespace each."""
    target = path / "groups.yaml"
    target.write_text(
        "".join(
            "---\napiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata:\n"
            f"  name: og\n  namespace: ns-{index:05d}\nspec:\n  targetNamespaces:\n"
            f"  - ns-{index:05d}\n  - 'b\u202eidi'\n"
            for index in range(count)
        )
    )
    return target


@pytest.mark.parametrize("where", ["sample", "hostile"])
def test_the_streamed_report_is_the_same_bytes_as_the_whole_one(where: str) -> None:
    session = sample_session([], None) if where == "sample" else snapshot_session([str(HOSTILE)])
    whole = dump_json(session.analysis.report())
    out = io.StringIO()
    write_json(session.analysis.report(streamed=True), out)
    assert out.getvalue() == whole
    assert dumps(session.analysis.report()) == whole
    assert dumps(session.analysis.report(streamed=True)) == whole


def test_streamed_lists_are_entries_built_as_written() -> None:
    session = sample_session([], None)
    streamed = session.analysis.report(streamed=True)
    for key in ("operatorGroups", "csvs", "subscriptions", "findings"):
        assert isinstance(streamed[key], Entries)
    whole = session.analysis.report()
    assert {key: list(v) if isinstance(v, Entries) else v for key, v in streamed.items()} == whole


def test_empty_lists_and_objects_print_as_json_does() -> None:
    for value in ({}, [], {"a": []}, {"a": {}}, {"a": [[], {}, [1, {"b": []}]]}, [{"c": "\u202e"}]):
        assert dumps(value) == dump_json(value)
    assert dumps({"x": Entries((), dict)}) == dump_json({"x": []})
    deep = {"a": [{"b": 1, "c": Entries([{"d": [1, {}]}, {}], dict)}]}
    assert dumps(deep) == dump_json({"a": [{"b": 1, "c": [{"d": [1, {}]}, {}]}]})


def test_a_finding_naming_many_objects_lists_them_as_written(tmp_path: Path) -> None:
    session = snapshot_session([str(_groups(tmp_path, 100))])
    streamed = session.analysis.report(streamed=True)
    (inferred,) = [f for f in streamed["findings"] if f["code"] == "NamespacesInferred"]
    assert isinstance(inferred["related"], Entries) and len(inferred["related"]) == 100
    assert dumps(streamed) == dump_json(session.analysis.report())


def test_check_writes_a_large_json_report_in_pieces(tmp_path: Path) -> None:
    """~4 MiB of JSON from 700 groups: one write of it all would be past the 2 MiB bound
    (3,000 groups made 17 MiB, the same 64 KiB writes)."""
    target = _groups(tmp_path, 700)
    out = Recorder()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(target), "--output", "json"])
    assert status == 0
    assert len(out.getvalue()) > 3 << 20
    assert max(out.sizes) < 2 << 20
    checked = check(build_parser().parse_args(["check", str(target), "--output", "json"]))
    assert out.getvalue() == dump_json(checked.report)
    assert "\\u202e" in out.getvalue() and "\u202e" not in out.getvalue()


def test_report_json_without_streamed_is_plain_lists() -> None:
    session = sample_session([], None)
    report = report_json("snapshot", session.model, session.store)
    assert all(not isinstance(v, Entries) for v in report.values())


@pytest.mark.parametrize("colour", [False, True])
def test_the_streamed_text_is_the_same_as_the_whole_one(colour: bool) -> None:
    for session in (sample_session([], None), snapshot_session([str(HOSTILE)])):
        whole = render_text(session.analysis.report(), colour=colour)
        out = io.StringIO()
        write_text(session.analysis.report(streamed=True), out, colour=colour)
        assert out.getvalue() == whole
        assert render_text(session.analysis.report(streamed=True), colour=colour) == whole


def test_check_writes_a_large_text_report_in_pieces(tmp_path: Path) -> None:
    target = _groups(tmp_path, 3000)
    out = Recorder()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(target)])
    assert status == 0
    assert len(out.sizes) > 2
    checked = check(build_parser().parse_args(["check", str(target)]))
    assert out.getvalue() == render_text(checked.report)
    assert "... and 2995 more TargetsNotSynced" in out.getvalue()


@pytest.mark.parametrize(("output", "writer"), [("json", "write_json"), ("text", "write_text")])
def test_a_report_failing_halfway_prints_nothing(
    output: str, writer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import olmtui.report as report_module

    def broken(report: object, stream: io.StringIO, **_: object) -> None:
        stream.write("olmtui check: half of it\n")
        raise RuntimeError("broken while writing")

    monkeypatch.setattr(report_module, writer, broken)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["check", "--sample", "--output", output]) == 3
    assert out.getvalue() == ""


@pytest.mark.parametrize("output", ["json", "text"])
def test_a_temporary_directory_that_cannot_be_written_is_one_line_and_exit_2(
    output: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import olmtui.commands.check as check_module

    monkeypatch.setattr(check_module, "_SPOOL_MEMORY", 16)  # past it at once: a file is asked
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "gone"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["check", "--sample", "--output", output]) == 2
    assert out.getvalue() == ""
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and "TMPDIR" in lines[0] and "gone" in lines[0]
