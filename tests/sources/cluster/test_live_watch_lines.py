"""Cutting a watch stream into events: lines split across reads, blank lines, events cut
short, and batches bounded by count and by bytes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from olmtui.sources.cluster.live_http import WATCH_BATCH_BYTES, EventLines, watch_batches


def cut(data: bytes, sizes: list[int]) -> list[bytes]:
    chunks, start = [], 0
    for size in sizes:
        chunks.append(data[start : start + size])
        start += size
    chunks.append(data[start:])
    return [c for c in chunks if c]


def all_lines(chunks: list[bytes]) -> tuple[list[bytes], bool]:
    lines = EventLines()
    found = [line for chunk in chunks for line in lines.feed(chunk)]
    return found, lines.partial


def test_lines_split_across_reads_come_out_whole() -> None:
    data = b'{"a":1}\n{"b":22}\n{"c":333}\n'
    for sizes in ([1] * len(data), [3, 5, 7], [8], [9], [len(data)], [2, 30]):
        assert all_lines(cut(data, sizes)) == ([b'{"a":1}', b'{"b":22}', b'{"c":333}'], False), (
            sizes
        )


def test_blank_lines_are_skipped() -> None:
    assert all_lines([b"\n\n", b'  \n{"a":1}\r\n', b"\n"]) == ([b'{"a":1}\r'], False)


def test_a_stream_cut_inside_an_event_is_partial() -> None:
    assert all_lines([b'{"a":1}\n{"b"', b":2"]) == ([b'{"a":1}'], True)
    assert all_lines([b'{"a":1}\n  ']) == ([b'{"a":1}'], False)


def test_a_line_spanning_many_reads_is_joined_once() -> None:
    body = json.dumps({"x": "y" * 10_000}).encode()
    found, partial = all_lines(cut(body + b"\n", [100] * 101))
    assert found == [body] and not partial


class FakeContent:
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def iter_any(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk


class FakeResponse:
    def __init__(self, chunks: list[bytes]) -> None:
        self.content = FakeContent(chunks)
        self.closed = False

    def close(self) -> None:
        self.closed = True


def event(i: int, pad: int = 0) -> bytes:
    return json.dumps({"type": "MODIFIED", "object": {"i": i, "pad": "x" * pad}}).encode()


async def batches_of(response: FakeResponse, size: int) -> list[list[int]]:
    found = []
    async for batch in watch_batches(response, size):  # type: ignore[arg-type]
        found.append([e["object"]["i"] for e in batch])
    return found


def test_one_large_read_comes_in_batches_bounded_by_count() -> None:
    response = FakeResponse([b"\n".join(event(i) for i in range(120)) + b"\n"])
    found = asyncio.run(batches_of(response, 50))
    assert [len(b) for b in found] == [50, 50, 20]
    assert [i for b in found for i in b] == list(range(120))
    assert response.closed


def test_batches_are_bounded_by_bytes_too() -> None:
    pad = WATCH_BATCH_BYTES // 4
    response = FakeResponse([b"\n".join(event(i, pad) for i in range(10)) + b"\n"])
    found = asyncio.run(batches_of(response, 50))
    assert [len(b) for b in found] == [4, 4, 2]


def test_a_stream_cut_inside_an_event_raises_and_closes() -> None:
    response = FakeResponse([event(1) + b"\n" + event(2)[:10]])

    with pytest.raises(aiohttp.ClientPayloadError):
        asyncio.run(batches_of(response, 50))
    assert response.closed
