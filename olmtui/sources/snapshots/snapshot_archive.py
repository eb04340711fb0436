"""A tar archive read as a stream, and told apart from one that ends early.

``tarfile``'s own pipe mode (``r|*``) stops quietly when the data ends between two members,
inside a header, or inside a member it skips: a must-gather download cut in the middle of a
log file reads as a smaller archive that looks whole, and every object after the cut is lost
without a word. So the archive is decompressed here, by the ``gzip``/``bz2``/``lzma`` readers
that raise ``EOFError`` when a compressed stream lacks its end marker, the decompressed bytes
are counted, and the stream is read to its very end once the members are read: a plain tar
stream shorter than the place of its end-of-archive block is cut too.

A compressed archive is read only until it has expanded past
``input_limits.EXPANSION_FLOOR_BYTES`` and ``MAX_EXPANSION_RATIO`` times its own size: a
4 MiB gzip bomb would otherwise be decompressed to its 4 GiB (the members' bytes are never
all kept, but the time is spent); reading stops there with ``Refused``.

Members are walked here rather than by ``tarfile``'s iterator. In pipe mode ``tarfile`` skips
a member it was not asked to read one 10 KiB block at a time, and goes on asking for blocks
after the data ends: a 3.5 KB archive whose pax header declares a member of 10^20 bytes kept
it at 100% CPU for ever. So members are skipped here, a MiB at a time, and the end of the
data stops the skip; a member whose declared end lies past what the archive can hold (the
file's size, or what a compressed archive may expand to) stops the reading at once, without
reading what it cannot find. ``tarfile`` also keeps every header it reads; they are let go
as the walk goes (a small archive of a million empty members would hold them all).
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

from olmtui.sources.input_limits import (
    EXPANSION_FLOOR_BYTES,
    MAX_EXPANSION_RATIO,
    Refused,
    size_text,
)

_DRAIN_CHUNK = 1 << 20
_SKIP_CHUNK = 1 << 20


class _CountingReader:
    """The decompressed stream, counting what ``tarfile`` and the final drain read of it."""

    def __init__(self, stream: BufferedIOBase, limit: int | None) -> None:
        self.stream = stream
        self.count = 0
        self.limit = limit

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.count += len(data)
        if self.limit is not None and self.count > self.limit:
            raise Refused(
                f"reading stopped after {size_text(self.limit)}: the archive expands to more "
                f"than {MAX_EXPANSION_RATIO} times its compressed size (a compression bomb?)"
            )
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


class ArchiveStream:
    """A pipe-mode ``TarFile``, the archive's ``size`` and, when it is compressed, the
    ``limit`` it is read to (the most its stream may hold; a plain one holds ``size``)."""

    def __init__(self, tar: tarfile.TarFile, size: int, limit: int | None) -> None:
        self.tar = tar
        self.size = size
        self.limit = limit

    def members(self) -> Iterator[tarfile.TarInfo]:
        """Each member in order. The caller may read the member's data (``extractfile``)
        before asking for the next; whatever it left is skipped here, bounded (R-SRC-1)."""
        tar = self.tar
        while True:
            member = tar.next()
            if member is None:
                return
            # pipe mode never looks back: no header is needed again (typeshed omits the list)
            tar.members.clear()  # type: ignore[attr-defined]
            yield member
            self._skip_to(tar.offset, member)

    def _skip_to(self, offset: int, member: tarfile.TarInfo) -> None:
        """Read the stream up to ``offset`` (the next header), a MiB at a time; refuse at
        once a member that ends past what the stream can hold."""
        if self.limit is not None and offset > self.limit:
            raise Refused(
                f"reading stopped at member {member.name}, whose header declares "
                f"{size_text(member.size)}: the archive expands to more than "
                f"{MAX_EXPANSION_RATIO} times its compressed size before its end (a "
                "compression bomb, or a damaged header?)"
            )
        if self.limit is None and offset > self.size:
            raise tarfile.ReadError(
                f"member {member.name} declares {member.size:,} bytes, more than the "
                f"{self.size:,} bytes of the whole archive: it is cut short or damaged"
            )
        stream = self.tar.fileobj
        assert stream is not None
        while (left := offset - stream.tell()) > 0:
            if not stream.read(min(left, _SKIP_CHUNK)):
                raise tarfile.ReadError(f"the data ends inside member {member.name}")


@contextmanager
def tar_stream(archive: Path) -> Iterator[ArchiveStream]:
    """The archive as a pipe-mode ``TarFile`` to walk once (``ArchiveStream.members``).

    Leaving the block normally checks that the archive was whole: ``EOFError`` when the
    compressed stream or the tar stream ends before its end marker.
    """
    with archive.open("rb") as raw, _decompressed(raw) as data:
        compressed = data is not raw
        size = archive.stat().st_size
        limit = max(EXPANSION_FLOOR_BYTES, MAX_EXPANSION_RATIO * size) if compressed else None
        stream = _CountingReader(data, limit)
        # typeshed's file protocol also asks for write, tell and seek; pipe mode only reads.
        with tarfile.open(fileobj=stream, mode="r|") as tar:  # type: ignore[call-overload]
            yield ArchiveStream(tar, size, limit)
            while stream.read(_DRAIN_CHUNK):
                pass
            if stream.count < tar.offset + tarfile.BLOCKSIZE:
                raise EOFError("the tar stream ends before its end-of-archive block")
