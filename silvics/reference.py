"""The generated reference (`silvics docs`): the pages of this repository's site (the primitive
reference and a page per bundled game, in docs/reference/), and the site of any one game or
pack, a standalone mkdocs project built to HTML. The pages come from the compiler's docs
backend, which only renders: the balance figures are handed to it (balance.py plays them).
"""
from __future__ import annotations

from pathlib import Path

import yaml

from silvics import bundled, games
from silvics.compiler.docs import game_page, primitives_page
from silvics.errors import UsageError

# Every page of a game's site, in the order of its menu: (file, title, its text from the IR
# and the balance figures, None when left out). Adding a page is adding a line (and, for this
# repository's site, where a page other than the first is reference/<game>-<file>, a line of
# mkdocs.yml's nav for each bundled game).
GAME_PAGES = (
    ("index.md", "Reference", game_page),
)
MARK = "# Written by `silvics docs`, which rewrites this folder: edit the game, not these files.\n"


def write_reference(out: Path, figures, use_cache: bool = True) -> list[Path]:
    """Write this repository's reference pages under `out`: the primitive reference, and each
    bundled game's pages with the balance figures `figures(ir)` gives; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    pages = {"primitives.md": primitives_page()}
    for game_id in bundled.games():
        ir = games.load(game_id, use_cache=use_cache)
        balance = figures(ir)
        for number, (name, _, page) in enumerate(GAME_PAGES):
            pages[f"{game_id}.md" if number == 0 else f"{game_id}-{name}"] = page(ir, balance)
    return [_write(out / name, text) for name, text in pages.items()]


def check_site_folder(out: Path) -> None:
    """Refuse a folder for a game's site unless it is new, empty, or one this command wrote:
    nothing else is ever overwritten. Checked before any work; changes nothing."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out} is a file: give a folder for the site")
    try:
        with open(out / "mkdocs.yml", encoding="utf-8") as config:
            ours = config.read(len(MARK)) == MARK
    except (OSError, UnicodeDecodeError):
        ours = False
    if out.is_dir() and any(out.iterdir()) and not ours:
        raise UsageError(f"-o {out} holds files `silvics docs` did not write: give a new or empty folder")


def prepare_site(out: Path) -> None:
    """Make the site's folders, and clear the pages a previous run wrote (the list may change)."""
    try:
        (out / "docs").mkdir(parents=True, exist_ok=True)
        for old in (out / "docs").glob("*.md"):
            old.unlink()
    except OSError as error:
        raise UsageError(f"cannot write the site to {out}: {error.strerror}") from None


def write_site(ir, out: Path, balance) -> list[Path]:
    """Write the mkdocs project of one game (or pack) into the prepared folder `out`: `mkdocs.yml`,
    and in `docs/` a page per GAME_PAGES entry (`balance`, figures or None, for those that show them)."""
    config = {"site_name": ir.name, "docs_dir": "docs", "site_dir": "site",
              "theme": {"name": "mkdocs", "highlightjs": False},        # no scripts from the network
              "nav": [{title: name} for name, title, _ in GAME_PAGES],
              "validation": {"omitted_files": "warn", "absolute_links": "warn", "unrecognized_links": "warn",
                             "anchors": "warn"}}
    (out / "mkdocs.yml").write_text(MARK + yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return [out / "mkdocs.yml"] + [_write(out / "docs" / name, page(ir, balance)) for name, _, page in GAME_PAGES]


def build_site(out: Path) -> Path:
    """Build the HTML of the project in `out` with mkdocs, strictly (a warning fails the build);
    returns the folder of the HTML."""
    try:
        from mkdocs.commands.build import build
        from mkdocs.config import load_config
        from mkdocs.exceptions import MkDocsException
    except ImportError:
        raise UsageError(f"wrote the Markdown to {out / 'docs'}, but building the HTML needs mkdocs: "
                         "pip install 'silvics[docs]'") from None
    try:
        build(load_config(config_file=str(out / "mkdocs.yml"), strict=True))
    except MkDocsException as error:
        raise SiteError(f"mkdocs could not build the site in {out}: {error}") from None
    return out / "site"


class SiteError(RuntimeError):
    """The generated pages did not build: a fault of silvics, not of the game's data."""


def _write(path: Path, text: str) -> Path:
    path.write_text(text + "\n", encoding="utf-8")
    return path
