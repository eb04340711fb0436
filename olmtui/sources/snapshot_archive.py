"""A tar archive read as a stream, and told apart from one that ends early.

``tarfile``'s own pipe mode (``r|*``) stops quietly when the data ends between two members,
inside a header, or inside a member it skips: a must-gather download cut in the middle of a
log file reads as a smaller archive that looks whole, and every object after the cut is lost
without a word. So the archive is decompressed here, by the ``gzip``/``bz2``/``lzma`` readers
that raise ``EOFError`` when a compressed stream lacks its end marker, the decompressed bytes
are counted, and the stream is read to its very end once the members are read: a plain tar
stream shorter than the place of its end-of-archive block is cut too.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from io import BufferedIOBase, BufferedReader
from pathlib import Path

_DRAIN_CHUNK = 1 << 20


class _CountingReader:
    """The decompressed stream, counting what ``tarfile`` and the final drain read of it."""

    def __init__(self, stream: BufferedIOBase) -> None:
        self.stream = stream
        self.count = 0

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.count += len(data)
        return data


def _decompressed(raw: BufferedReader) -> BufferedIOBase:
    """The tar stream inside ``raw``, recognised by its magic bytes rather than its name."""
    head = raw.peek(6)
    if head.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=raw)
    if head.startswith(b"BZh"):
        return bz2.BZ2File(raw)
    if head.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(raw)
    return raw


@contextmanager
def tar_stream(archive: Path) -> Iterator[tarfile.TarFile]:
    """The archive as a pipe-mode ``TarFile`` to iterate once.

    Leaving the block normally checks that the archive was whole: ``EOFError`` when the
    compressed stream or the tar stream ends before its end marker.
    """
    with archive.open("rb") as raw, _decompressed(raw) as data:
        stream = _CountingReader(data)
        # typeshed's file protocol also asks for write, tell and seek; pipe mode only reads.
        with tarfile.open(fileobj=stream, mode="r|") as tar:  # type: ignore[call-overload]
            yield tar
            while stream.read(_DRAIN_CHUNK):
                pass
            if stream.count < tar.offset + tarfile.BLOCKSIZE:
                raise EOFError("the tar stream ends before its end-of-archive block")
