"""Whether a recorder is still writing a recording file: the writer holds an advisory lock
on the file it writes (``flock``) for as long as it has it open, so that ``olmtui replay``
can follow a recording still being written and tell a tail being written from a tail cut
by a crash (R-REC-3). The lock is released by the system when the writer's process ends,
killed or not. Where ``flock`` does not exist, a file changed in the last minute counts as
being written.
"""

from __future__ import annotations

import os
import time

try:
    import fcntl
except ImportError:  # not on this system: the file's age answers instead
    fcntl = None  # type: ignore[assignment]

#: Where there is no lock: a file changed this recently (seconds) is taken as being written.
RECENT = 60.0


def hold(fd: int) -> None:
    """The writer's side: lock the file open at ``fd`` while it is open (never waits; a
    second writer on the same file is refused earlier, by the recorder)."""
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return  # a file system without locks: readers fall back to nothing being written


def being_written(path: str) -> bool:
    """Whether a recorder holds ``path`` open for writing now (only a regular file can be
    a recording: a FIFO is never opened here, its open would wait for a writer)."""
    if not os.path.isfile(path):
        return False
    if fcntl is None:
        try:
            return time.time() - os.stat(path).st_mtime < RECENT
        except OSError:
            return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing releases a shared lock taken here
    return False
