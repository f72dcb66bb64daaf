"""Which files a game or pack may read, and reading them within bounds.

A pack is a stranger's folder, so every path it lists is resolved (links followed) and
checked before anything is opened: it must lie inside the pack's folder and be a regular
file, not a device, a FIFO or a socket. A game's listed files must lie inside its root.
A file larger than MAX_FILE_BYTES is refused from its size alone, before it is read.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from ..interpreter.images import MAX_IMAGE_BYTES, BadImage, data_uri

MAX_FILE_BYTES = 5 * 1024 * 1024  # 50 times the largest bundled card file; YAML work grows with it
MAX_LISTED_FILES = 1000
MAX_LISTED_BYTES = 20 * 1024 * 1024  # all the files of one list together
MAX_PICTURE_BYTES = 32 * 1024 * 1024  # every picture a compile reads (a game's, its pack's), together


class Refused(Exception):
    """A file the compiler will not open, and why (said to the designer)."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass(frozen=True)
class Fence:
    """The folder listed files must stay in, and how to say so."""

    root: Path
    place: str  # "the pack's folder", in messages
    hint: str

    @classmethod
    def of_pack(cls, pack_file: Path) -> Fence:
        """The folder holding pack.yaml (found without following pack.yaml itself, were it a link)."""
        return cls(
            Path(pack_file).absolute().parent.resolve(),
            "the pack's folder",
            "a pack reads only files inside its own folder: list them relative to pack.yaml",
        )

    @classmethod
    def of_game(cls, game_file: Path) -> Fence:
        return cls(
            game_root(game_file),
            "the game's root folder",
            "a game reads only files under its root, the folder holding rules/ and cards/",
        )


def game_root(game_file: Path) -> Path:
    """The folder a game's files must stay in: the one holding rules/ and cards/ when the game
    is laid out as rules/<id>/game.yaml (as the bundled games are), else the game's own folder."""
    folder = Path(game_file).absolute().parent.resolve()  # not following game.yaml, were it a link
    return folder.parent.parent if folder.parent.name == "rules" else folder


@dataclass
class Listing:
    """What a `cards:` or `modules:` list names: files (resolved, checked, in order), the
    folders whose .yaml files were all taken, and the entries refused, as (index, message, hint)."""

    files: list[Path] = field(default_factory=list)
    folders: list[Path] = field(default_factory=list)
    refused: list[tuple[int, str, str]] = field(default_factory=list)
    size: int = 0  # bytes of the files, together


def list_files(entries, base: Path, fence: Fence, kind: str) -> Listing:
    """The `kind` files (card, module) each entry names, a folder standing for every .yaml file
    in it; nothing is opened."""
    listing = Listing()
    for index, entry in enumerate(entries):
        try:
            _take(str(entry), base, fence, listing, kind)
        except Refused as refusal:
            listing.refused.append((index, refusal.message, refusal.hint))
        except OSError as error:
            listing.refused.append((index, f"cannot read '{entry}': {error.strerror}", ""))
    return listing


def _take(entry: str, base: Path, fence: Fence, listing: Listing, kind: str):
    listed = len(listing.files)
    target = _inside(entry, base / entry, fence, entry)
    if target.is_dir():
        listing.folders.append(target)
        for path in sorted(target.glob("*.yaml")):
            listing.files.append(_regular(_inside(entry, path, fence, path.name), entry, path.name))
    elif target.exists():
        listing.files.append(_regular(target, entry))
    else:
        raise Refused(f"no {kind} file or folder at '{entry}'")
    if len(listing.files) > MAX_LISTED_FILES:
        raise Refused(f"more than {MAX_LISTED_FILES} files are listed", "merge cards into fewer files")
    listing.size += sum(path.stat().st_size for path in listing.files[listed:])
    if listing.size > MAX_LISTED_BYTES:
        raise Refused(
            f"the files listed come to more than {MAX_LISTED_BYTES // (1024 * 1024)} MB",
            "a game needs far less: list fewer or smaller files",
        )


def _inside(entry: str, path: Path, fence: Fence, name: str) -> Path:
    what = f"'{entry}'" if name == entry else f"'{name}' in '{entry}'"
    try:
        resolved = path.resolve()
    except RuntimeError:  # (Python's word for a loop of links)
        raise Refused(
            f"{what} is a link that leads back to itself", "link it to a file, or remove it"
        ) from None
    if Path(entry).is_absolute() or not resolved.is_relative_to(fence.root):
        raise Refused(f"{what} is outside {fence.place}", fence.hint)
    return resolved


def _regular(path: Path, entry: str, name: str = "") -> Path:
    """The path, if it names a regular file of a readable size (judged by stat, never by opening)."""
    what = f"'{name}' in '{entry}'" if name else f"'{entry}'"
    try:
        details = path.stat()
    except FileNotFoundError:  # (resolved already: a link whose file is gone)
        raise Refused(
            f"{what} is a link to a file that is not there", "link it to a file, or remove it"
        ) from None
    if not stat.S_ISREG(details.st_mode):
        raise Refused(f"{what} is not a regular file", "list YAML files, not devices, pipes or sockets")
    if details.st_size > MAX_FILE_BYTES:
        raise Refused(*_too_big(what, details.st_size))
    return path


def _too_big(what: str, size: int) -> tuple[str, str]:
    return (
        f"{what} is {size:,} bytes, more than the {MAX_FILE_BYTES // (1024 * 1024)} MB a file may be",
        "split it into several files",
    )


def read_bounded(path: Path) -> str:
    """A regular file's text, refused unread when it is not a regular file or is too large.
    Opened without blocking (a FIFO would wait for a writer) and read no further than the limit."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(descriptor, "rb") as file:
        details = os.fstat(descriptor)
        if not stat.S_ISREG(details.st_mode):
            raise Refused("this is not a regular file", "give a YAML file, not a device, a pipe or a socket")
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise Refused(*_too_big("this file", max(details.st_size, len(data))))
    return data.decode("utf-8")


_pictures_read: ContextVar[dict | None] = ContextVar("pictures_read", default=None)
_picture_room: ContextVar[list | None] = ContextVar("picture_room", default=None)  # [bytes left]


@contextmanager
def picture_budget() -> Iterator[None]:
    """A compile's pictures, together, may come to MAX_PICTURE_BYTES (they are held in the IR):
    the room of the block, a whole compile's (a pack's with its base game's). Each block starts
    with the whole room, whatever was read before it."""
    token = _picture_room.set([MAX_PICTURE_BYTES])
    try:
        yield
    finally:
        _picture_room.reset(token)


@contextmanager
def recording_pictures() -> Iterator[dict]:
    """The pictures read inside the block: path -> the SHA-256 of the bytes read (a compile's
    sources besides its YAML, for a cache to see an edited picture)."""
    read: dict = {}
    token = _pictures_read.set(read)
    try:
        yield read
    finally:
        _pictures_read.reset(token)


def read_picture(entry: str, base: Path, fence: Fence) -> str:
    """The picture a file names (relative to `base`, inside the fence), checked and made a data
    URI (images.py); Refused when it is outside, not a regular file, too large or not a picture."""
    target = _inside(entry, base / entry, fence, entry)
    if not target.exists():
        raise Refused(f"no picture at '{entry}'", "name a PNG, JPEG or SVG file, relative to this file")
    path = _regular(target, entry)
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(descriptor, "rb") as file:
        data = file.read(MAX_IMAGE_BYTES + 1)
    read = _pictures_read.get()
    if read is not None:
        read[str(path)] = hashlib.sha256(data).hexdigest()
    if len(data) > MAX_IMAGE_BYTES:
        raise Refused(
            f"'{entry}' is more than {MAX_IMAGE_BYTES // (1024 * 1024)} MB",
            "a picture on a card needs far less",
        )
    room = _picture_room.get()
    if room is not None:
        if room[0] < 0:  # the compile is refused already, at the picture that overflowed: said once
            return ""
        room[0] -= len(data)
        if room[0] < 0:
            raise Refused(
                f"with '{entry}', the pictures come to more than {MAX_PICTURE_BYTES // (1024 * 1024)} MB",
                "a picture used by several cards is read once a card: make them smaller",
            )
    try:
        return data_uri(data)
    except BadImage as refusal:
        raise Refused(f"'{entry}': {refusal.message}", refusal.hint) from None
