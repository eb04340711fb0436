"""``input_limits.read_regular`` reads with ``os.read`` (a must-gather is thousands of small
files): a read that returns fewer bytes than asked before the end is read on, never taken
for the whole file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from olmtui.sources import input_limits


def test_short_reads_are_read_on_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.yaml"
    data = bytes(range(256)) * 40
    path.write_bytes(data)
    read = os.read
    monkeypatch.setattr(os, "read", lambda fd, size: read(fd, min(size, 7)))
    assert input_limits.read_regular(path) == data
    with pytest.raises(input_limits.Refused, match="larger than"):
        input_limits.read_regular(path, 100)


def test_every_descriptor_is_closed_read_or_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"kind: x\n")
    os.mkfifo(tmp_path / "fifo.yaml")
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(50):
        assert input_limits.read_regular(path) == b"kind: x\n"
        with pytest.raises(input_limits.Refused):
            input_limits.read_regular(tmp_path / "fifo.yaml")
        with pytest.raises(input_limits.Refused):
            input_limits.read_regular(path, 3)
    assert len(os.listdir("/proc/self/fd")) == before


def test_a_file_read_whole_at_once_takes_one_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As many bytes as ``fstat`` said the file holds are all of it: no read for its end."""
    path = tmp_path / "a.yaml"
    path.write_bytes(b"kind: x\n" * 100)
    sizes: list[int] = []
    read = os.read

    def counted(fd: int, size: int) -> bytes:
        sizes.append(size)
        return read(fd, size)

    monkeypatch.setattr(os, "read", counted)
    assert input_limits.read_regular(path) == b"kind: x\n" * 100
    assert sizes == [801]
    sizes.clear()
    assert input_limits.read_regular(Path("/proc/self/status"))  # claims 0 bytes, holds more
    assert len(sizes) > 1
