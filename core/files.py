"""Opening log files safely: regular files only, never a FIFO or a device, and only inside a folder.

A log path comes from the command line, or from listing a folder the user named. Either may be
hostile or just odd: a FIFO with no writer blocks ``open()`` for ever, ``/dev/zero`` never ends, a
symlink in a project folder may point at ``/etc/passwd``. :func:`open_regular` opens without
blocking and refuses anything but a regular file; :func:`inside` tells whether a listed path stays
inside the folder it was listed from once symlinks are resolved.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO, Final

UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")


class NotARegularFileError(OSError):
    """The path is a FIFO, a socket, a device or a folder: ctxscope reads regular files only."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def open_regular(path: str) -> BinaryIO:
    """Open a regular file for binary reading, without ever blocking.

    The file is opened with ``O_NONBLOCK`` (so a FIFO with no writer does not hang) and checked
    with ``fstat`` on the open descriptor (so a swap between check and open cannot slip through).

    Raises:
        NotARegularFileError: The path is a folder, FIFO, socket or device.
        OSError: The path cannot be opened (missing, permission).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFileError(f"is {_kind(mode)}, not a log file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` (symlinks resolved) lies inside ``folder`` (symlinks resolved)."""
    try:
        real = os.path.realpath(path)
        root = os.path.realpath(folder)
    except (OSError, ValueError):
        return False
    return os.path.commonpath([real, root]) == root if real != root else False


def looks_utf16(head: bytes) -> bool:
    """Whether a file's first bytes look like UTF-16 text (a BOM, or every other byte NUL)."""
    if head.startswith(UTF16_BOMS):
        return True
    sample = head[:512]
    return len(sample) >= 8 and (
        sample[1::2].count(0) > len(sample) * 0.4 or sample[0::2].count(0) > len(sample) * 0.4
    )
