"""A recording file read back: the state at every position equals the in-memory reference
over the same changes (randomized), a cut or damaged tail ends the recording at its last
complete change and says so, a newer format and other files are refused in one line, and a
rotated set reads as one recording."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from model_builders import csv, namespace, pod, subscription
from recording_support import START, Recorded

from olmtui.errors import UsageError
from olmtui.sources.recording import writer as recording_writer
from olmtui.sources.recording.format import FORMAT, HEADER, MAGIC, encode, frame, is_recording
from olmtui.sources.recording.reader import open_recording
from olmtui.sources.recording.rotation import Rotation, make_room
from olmtui.store import Unreadable


def _churn(recorded: Recorded, rng: random.Random, steps: int) -> None:
    """Random adds, updates, deletes, relists, access lost and given back, and flushes."""
    store = recorded.store
    for _ in range(steps):
        recorded.now += rng.choice([0.0, 0.001, 0.3, 2.0])
        name = f"op{rng.randrange(6)}"
        roll = rng.random()
        if roll < 0.35:
            conditions = [{"phase": p} for p in rng.sample(["A", "B", "C", "D"], rng.randrange(4))]
            store.apply(
                "MODIFIED",
                csv(
                    f"ns{rng.randrange(2)}",
                    name,
                    phase=rng.choice(["Succeeded", "Failed", "Installing"]),
                    version=f"1.{rng.randrange(4)}.0",
                    status={"conditions": conditions},
                    annotations={"k": str(rng.randrange(3))} if rng.random() < 0.5 else None,
                ),
            )
        elif roll < 0.45:
            store.apply("DELETED", csv(f"ns{rng.randrange(2)}", name))
        elif roll < 0.6:
            store.apply("ADDED", subscription("ns0", name, channel=rng.choice(["a", "b"])))
        elif roll < 0.7:
            store.apply_many([namespace(f"team-{rng.randrange(4)}") for _ in range(3)])
        elif roll < 0.78:
            store.replace("Namespace", [namespace(f"team-{i}") for i in range(rng.randrange(4))])
        elif roll < 0.86:
            lost = Unreadable("pods", rng.choice(["forbidden", "gone"]), recorded.now, 30.0)
            store.set_unreadable("Pod", None if rng.random() < 0.5 else lost)
        elif roll < 0.93:
            store.apply("ADDED", pod("ns0", name, restarts=rng.randrange(3)))
        else:
            recorded.writer.tick()


@pytest.mark.parametrize("seed", range(6))
def test_the_file_agrees_with_the_reference_at_every_position(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # small frames and checkpoints, so a short run crosses many of both
    monkeypatch.setattr(recording_writer, "FRAME_CHANGES", 1 + seed * 3)
    monkeypatch.setattr(recording_writer, "CHECKPOINT_CHANGES", 10 + seed * 7)
    rng = random.Random(seed)
    recorded = Recorded(tmp_path / "rec")
    _churn(recorded, rng, 400)
    recorded.close()
    reference = recorded.reference
    timeline = open_recording(str(recorded.path))
    assert timeline.incomplete_because == []
    assert len(timeline) == len(reference) > 100
    assert (timeline.started, timeline.ended) == (reference.started, reference.ended)
    positions = list(range(len(reference) + 1))
    for count in positions + rng.sample(positions, 60):  # in order, then jumping about
        assert timeline.state(count) == reference.state(count), count
        assert timeline.time_of(count) == reference.time_of(count)
    start = rng.randrange(len(reference))
    assert list(timeline.changes(start, len(reference))) == list(
        reference.changes(start, len(reference))
    )
    for when in (START - 1, START, reference.ended, reference.time_of(len(reference) // 2)):
        assert timeline.count_at(when) == reference.count_at(when)


def _recording(tmp_path: Path, steps: int = 200) -> Recorded:
    recorded = Recorded(tmp_path / "rec")
    _churn(recorded, random.Random(7), steps)
    recorded.close()
    return recorded


def test_a_cut_tail_ends_at_the_last_complete_change(tmp_path: Path) -> None:
    recorded = _recording(tmp_path)
    whole = recorded.path.read_bytes()
    reference = recorded.reference
    full = open_recording(str(recorded.path))
    cut = tmp_path / "cut"
    last_frames = range(max(len(whole) - 3000, 200), len(whole))
    for size in [*last_frames, len(whole) // 2]:
        cut.write_bytes(whole[:size])
        timeline = open_recording(str(cut))
        assert len(timeline) <= len(full)
        assert timeline.state(len(timeline)) == reference.state(len(timeline))
        if timeline.incomplete_because:
            assert (
                "the recording ends at its last complete change" in (timeline.incomplete_because[0])
            )


def test_a_damaged_frame_ends_the_recording_there(tmp_path: Path) -> None:
    recorded = _recording(tmp_path)
    data = bytearray(recorded.path.read_bytes())
    data[len(data) * 2 // 3] ^= 0xFF
    recorded.path.write_bytes(bytes(data))
    timeline = open_recording(str(recorded.path))
    assert 0 < len(timeline) < len(recorded.reference)
    assert timeline.state(len(timeline)) == recorded.reference.state(len(timeline))
    assert "fails its checksum" in timeline.incomplete_because[0]


def test_other_files_and_newer_formats_are_refused_in_one_line(tmp_path: Path) -> None:
    text = tmp_path / "state.yaml"
    text.write_text("kind: Namespace\n")
    newer = tmp_path / "newer"
    newer.write_bytes(MAGIC + frame(HEADER, encode({"format": FORMAT + 1})))
    headless = tmp_path / "headless"
    headless.write_bytes(MAGIC + b"\x00")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, says in [
        (fifo, "is not a regular file"),
        (text, "is not an olmtui recording"),
        (tmp_path, "is a directory"),
        (tmp_path / "missing", "cannot read"),
        (newer, f"format {FORMAT + 1}; this olmtui reads formats up to {FORMAT}"),
        (headless, "cut before its header"),
    ]:
        with pytest.raises(UsageError, match=says) as raised:
            open_recording(str(path))
        assert "\n" not in str(raised.value)
    assert not is_recording(str(text)) and not is_recording(str(tmp_path))
    assert not is_recording(str(fifo))  # never opened: a read would block
    assert is_recording(str(newer))


def test_a_rotated_set_reads_as_one_recording_and_the_oldest_go(tmp_path: Path) -> None:
    rotation = Rotation(max_size=12_000, parts=4)
    recorded = Recorded(tmp_path / "rec", rotation=rotation)
    rng = random.Random(3)
    for _ in range(30):
        _churn(recorded, rng, 50)
        recorded.writer.tick()
    recorded.close()
    parts = sorted(p.name for p in tmp_path.iterdir())
    assert "rec.1" in parts and "rec.2" in parts  # rotated, each part ~ a quarter of the size
    assert sum(p.stat().st_size for p in tmp_path.iterdir()) <= 12_000 + 3_000
    timeline = open_recording(str(recorded.path))
    assert len(timeline.paths) == len(parts) and timeline.incomplete_because == []
    reference = recorded.reference
    # the oldest parts are gone: the set holds the last changes of the reference, and from
    # its first checkpoint on, the same states
    gone = len(reference) - len(timeline)
    assert gone > 0
    for count in range(0, len(timeline) + 1, 7):
        assert timeline.state(count) == reference.state(gone + count)
    # an older part opens alone, with the parts older than it
    older = open_recording(str(tmp_path / "rec.1"))
    assert len(older.paths) == len(parts) - 1
    assert older.state(len(older)) == reference.state(gone + len(older))


def test_a_new_recorder_keeps_the_previous_recording_as_an_older_part(tmp_path: Path) -> None:
    first = _recording(tmp_path)
    second = Recorded(tmp_path / "rec")
    second.store.apply("ADDED", namespace("after"))
    second.close()
    assert (tmp_path / "rec.1").exists()
    assert len(open_recording(str(tmp_path / "rec"))) == 1  # its own session only
    assert len(open_recording(str(tmp_path / "rec.1"))) == len(first.reference)


def test_parts_last_written_before_the_max_age_go(tmp_path: Path) -> None:
    rec = tmp_path / "rec"
    for number, age in [(0, 0), (1, 100), (2, 5000), (3, 9000)]:
        part = tmp_path / ("rec" if number == 0 else f"rec.{number}")
        part.write_bytes(MAGIC)
        os.utime(part, (START - age, START - age))
    make_room(str(rec), Rotation(max_age=3600), START, shift=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec.1", "rec.2"]
