"""Hostile recordings: frames whose checksum holds but whose content is garbage (a file made
by hand, or damaged and checksummed again) are one line and exit 2, or read up to the damage;
never a crash (exit 3)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cli_in_process import run_cli
from live_support import sample_objects
from model_builders import csv
from recording_support import START, Recorded

from olmtui.sources.recording.format import MAGIC, frame, frames


def _recording(path: Path) -> None:
    recorded = Recorded(path)
    recorded.store.apply_many(sample_objects())
    for step in range(60):
        recorded.now = START + step
        recorded.store.apply("MODIFIED", csv("team-z", "op.v1", version=f"1.{step % 4}.0"))
        if step % 10 == 9:
            recorded.writer.tick()
    recorded.close()


@pytest.mark.parametrize("seed", range(12))
def test_garbage_in_checksummed_frames_is_never_a_crash(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "rec"
    _recording(path)
    rng = random.Random(seed)
    with path.open("rb") as file:
        file.read(len(MAGIC))
        found = list(frames(file))
    victim = rng.randrange(len(found))
    out = [MAGIC]
    for index, each in enumerate(found):
        payload = bytearray(each.payload)
        if index == victim and payload:
            for _ in range(rng.randrange(1, 4)):
                payload[rng.randrange(len(payload))] = rng.randrange(256)
            if rng.random() < 0.3:
                payload = payload[: rng.randrange(len(payload))]
        out.append(frame(each.kind, bytes(payload)))
    path.write_bytes(b"".join(out))
    for argv in ([], ["--at", "-30s"]):
        result = run_cli("check", path, *argv, "--output", "json")
        assert result.returncode in (0, 1, 2), result.stderr
        if result.returncode == 2:
            assert len(result.stderr.strip().splitlines()) == 1, result.stderr
