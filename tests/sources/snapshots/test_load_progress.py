"""The load's progress: the loader's callback (files, bytes, in file order) and the terminal
line of ``check`` (stderr only, only on a TTY, only past a second, erased at the end)."""

from __future__ import annotations

import io
import tarfile
from itertools import pairwise
from pathlib import Path

import pytest

from olmtui.cli import main
from olmtui.commands.progress_line import TerminalProgress, bar, terminal_progress
from olmtui.sources.snapshots.load_progress import LoadProgress, describe
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store


def _group(namespace: str) -> str:
    return (
        "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\n"
        f"metadata: {{name: og, namespace: {namespace}}}\nspec: {{}}\n"
    )


def _tree(root: Path, count: int) -> list[Path]:
    paths = []
    for i in range(count):
        path = root / f"f{i:02d}.yaml"
        path.write_text(_group(f"ns-{i}"))
        paths.append(path)
    return paths


class FakeTTY(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _at(elapsed: float, done: int = 2) -> LoadProgress:
    return LoadProgress(done, 10, done * 5_000_000, 50_000_000, elapsed)


def test_the_loader_reports_each_file_in_order_with_totals_from_the_listing(
    tmp_path: Path,
) -> None:
    paths = _tree(tmp_path, 5)
    seen: list[LoadProgress] = []
    load_snapshot([str(tmp_path)], Store(), progress=seen.append)
    sizes = [p.stat().st_size for p in paths]
    assert [p.files_done for p in seen] == [1, 2, 3, 4, 5]
    assert {(p.files_total, p.bytes_total) for p in seen} == {(5, sum(sizes))}
    assert [p.bytes_done for p in seen] == [sum(sizes[: i + 1]) for i in range(5)]
    assert all(a.elapsed <= b.elapsed for a, b in pairwise(seen))


def test_an_archive_counts_its_selected_members_by_uncompressed_size(tmp_path: Path) -> None:
    sources = tmp_path / "src"
    sources.mkdir()
    paths = _tree(sources, 3)
    (sources / "notes.txt").write_text("not a snapshot file")
    archive = tmp_path / "dump.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for path in [*paths, sources / "notes.txt"]:
            tar.add(path, arcname=path.name)
    seen: list[LoadProgress] = []
    load_snapshot([str(archive)], Store(), progress=seen.append)
    total = sum(p.stat().st_size for p in paths)
    assert [(p.files_done, p.files_total) for p in seen] == [(1, 3), (2, 3), (3, 3)]
    assert seen[-1].bytes_done == seen[-1].bytes_total == total


def test_several_paths_share_one_count(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    _tree(first, 2)
    (second / "g.yaml").write_text(_group("other"))
    seen: list[LoadProgress] = []
    load_snapshot([str(first), str(second / "g.yaml")], Store(), progress=seen.append)
    assert [(p.files_done, p.files_total) for p in seen] == [(1, 3), (2, 3), (3, 3)]


def test_the_store_is_the_same_with_and_without_progress(tmp_path: Path) -> None:
    _tree(tmp_path, 4)
    plain, counted = Store(), Store()
    load_snapshot([str(tmp_path)], plain)
    load_snapshot([str(tmp_path)], counted, progress=lambda _p: None)
    assert list(plain.items("OperatorGroup")) == list(counted.items("OperatorGroup"))


def test_the_line_says_files_bytes_elapsed_and_rate() -> None:
    text = describe(LoadProgress(120, 1000, 45_200_000, 380_100_000, 3.0))
    assert text == "files 120/1000 · 45.2/380.1 MB · 3.0 s · 15.1 MB/s"
    assert bar(0.5, 10) == "[#####.....]"


def test_nothing_is_drawn_in_the_first_second() -> None:
    stream = FakeTTY()
    shown = TerminalProgress(stream)
    shown(_at(0.2))
    shown(_at(0.99))
    shown.close()
    assert stream.getvalue() == ""


def test_past_a_second_the_line_is_drawn_in_place_a_few_times_a_second_and_erased() -> None:
    stream = FakeTTY()
    shown = TerminalProgress(stream)
    shown(_at(1.2, done=2))
    first = stream.getvalue()
    assert first.startswith("\r\x1b[K") and "\n" not in first
    assert "files 2/10 · 10.0/50.0 MB · 1.2 s · 8.3 MB/s" in first
    assert "[##..........]" in first
    shown(_at(1.3, done=3))  # under INTERVAL later: not redrawn
    assert stream.getvalue() == first
    shown(_at(1.5, done=4))
    assert "files 4/10" in stream.getvalue()[len(first) :]
    shown.close()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_not_a_terminal_nothing_is_written() -> None:
    stream = io.StringIO()
    shown = TerminalProgress(stream)
    shown(_at(5.0))
    shown.close()
    assert stream.getvalue() == ""
    with terminal_progress(stream) as callback:
        assert callback is None


def test_the_context_erases_the_line_even_when_the_load_fails() -> None:
    stream = FakeTTY()
    with pytest.raises(RuntimeError), terminal_progress(stream) as callback:
        assert callback is not None
        callback(_at(2.0))
        raise RuntimeError("load failed")
    assert stream.getvalue().endswith("\r\x1b[K")


def test_check_writes_no_progress_when_stderr_is_no_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _tree(tmp_path, 3)
    code = main(["check", "--output", "json", str(tmp_path)])
    captured = capsys.readouterr()
    assert code in (0, 1)
    assert captured.err == ""
    assert captured.out.startswith("{")


def test_check_draws_on_a_terminal_stderr_and_keeps_stdout_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow load (every file past the delay) on a terminal: the line and its erasure go
    to stderr, the report alone to stdout."""
    _tree(tmp_path, 3)
    stream = FakeTTY()
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.setattr("olmtui.commands.progress_line.DELAY", 0.0)
    monkeypatch.setattr("olmtui.commands.progress_line.INTERVAL", 0.0)
    code = main(["check", "--output", "json", str(tmp_path)])
    out = capsys.readouterr().out
    assert code in (0, 1)
    assert out.startswith("{") and "loading" not in out
    assert "loading [" in stream.getvalue() and "files 1/3" in stream.getvalue()
    assert stream.getvalue().endswith("\r\x1b[K")
