"""The generated reference (`silvics docs`): the pages of this repository's site (the primitive
reference and a page per bundled game, in docs/reference/), and the site of any one game or
pack, a standalone mkdocs project built to HTML. The pages come from the compiler's docs
backend, which only renders; a game's balance report (balance.py plays it, report.py writes
it) is a folder of its own beside them, `balance/`, with its plots.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from silvics import bundled, games
from silvics.compiler.docs import gallery_page, game_page, pack_page, primitives_page
from silvics.compiler.faces import FONTS
from silvics.compiler.rulebook import rules_page
from silvics.errors import UsageError
from silvics.extras import require

# Every page of a game's site, in the order of its menu: (file, title, its text from the IR).
# Adding a page is adding a line (and, for this repository's site, where a game's pages are
# reference/<game>/<file>, a line of mkdocs.yml's nav for each bundled game).
GAME_PAGES = (
    ("index.md", "Rules", lambda ir: rules_page(ir, gallery="cards.md")),
    ("cards.md", "Cards", gallery_page),
    ("as-written.md", "As written", game_page),
)
PACK_PAGES = (  # a pack's site is about the pack: what it adds first, then the game's pages with it
    ("index.md", "What it adds", pack_page),
    ("rules.md", "Rules", lambda ir: rules_page(ir, gallery="cards.md")),
    *GAME_PAGES[1:],
)
BALANCE = ("balance", "Balance")  # the balance report's folder, and its title in the menu
MARK = "# Written by `silvics docs`, which rewrites this folder: edit the game, not these files.\n"


def write_reference(out: Path, balance, use_cache: bool = True) -> list[Path]:
    """Write this repository's reference pages under `out`: the primitive reference, and each
    bundled game's pages, with the balance report `balance(ir)` gives (None: none); returns
    the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [write_primitives_page(out)]
    for game_id in bundled.games():
        written += write_game_reference(out, game_id, balance, use_cache)
    return written


def write_primitives_page(out: Path) -> Path:
    """The reference of every primitive, out/primitives.md."""
    return _write(out / "primitives.md", primitives_page())


def write_game_reference(out: Path, game_id: str, balance, use_cache: bool = True) -> list[Path]:
    """One bundled game's pages and balance report, under out/<game>; the paths written."""
    ir = games.load(game_id, use_cache=use_cache)
    written = [_write(out / game_id / name, page(ir)) for name, _, page in GAME_PAGES]
    return written + _write_report(balance(ir), out / game_id / BALANCE[0])


def _write_report(made, folder: Path) -> list[Path]:
    from silvics import report  # matplotlib: loaded only when there is a report to draw

    return [] if made is None else report.write(made, folder)


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
        for old in [*(out / "docs").glob("*.md"), *(out / "docs" / BALANCE[0]).glob("*")]:
            old.unlink()
    except OSError as error:
        raise UsageError(f"cannot write the site to {out}: {error.strerror}") from None


def write_site(ir, out: Path, balance) -> list[Path]:
    """Write the mkdocs project of one game (or pack) into the prepared folder `out`: `mkdocs.yml`,
    and in `docs/` a page per GAME_PAGES entry, and the balance report (`balance`, or None)."""
    pages = PACK_PAGES if ir.pack.name else GAME_PAGES
    nav = [{title: name} for name, title, _ in pages]
    config = {
        "site_name": ir.pack.name or ir.name,
        "docs_dir": "docs",
        "site_dir": "site",
        "theme": {"name": "mkdocs", "highlightjs": False},  # no scripts from the network
        "extra_css": [FONT_CSS],
        "nav": nav + ([{BALANCE[1]: f"{BALANCE[0]}/index.md"}] if balance is not None else []),
        "validation": {
            "omitted_files": "warn",
            "absolute_links": "warn",
            "unrecognized_links": "warn",
            "anchors": "warn",
        },
    }
    (out / "mkdocs.yml").write_text(
        MARK + yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
    written = [_write(out / "docs" / name, page(ir)) for name, _, page in pages]
    fonts = write_fonts(out / "docs")
    return [out / "mkdocs.yml", *written, *fonts, *_write_report(balance, out / "docs" / BALANCE[0])]


FONT_CSS = "fonts/faces.css"  # under the docs folder: the font the card faces are measured with


def write_fonts(folder: Path) -> list[Path]:
    """The bundled font of the card faces (compiler/fonts: the fonts, their licence and the style
    sheet naming them) in `folder`/fonts: a page shows a face in the type its text was fitted with."""
    (folder / "fonts").mkdir(parents=True, exist_ok=True)
    written = [folder / "fonts" / source.name for source in sorted(FONTS.iterdir()) if source.is_file()]
    for path in written:
        shutil.copyfile(FONTS / path.name, path)
    return written


def build_site(out: Path) -> Path:
    """Build the HTML of the project in `out` with mkdocs, strictly (a warning fails the build);
    returns the folder of the HTML."""
    require("docs", "mkdocs", what="building the HTML")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    try:
        build(load_config(config_file=str(out / "mkdocs.yml"), strict=True))
    except MkDocsException as error:
        raise SiteError(f"mkdocs could not build the site in {out}: {error}") from None
    return out / "site"


class SiteError(RuntimeError):
    """The generated pages did not build: a fault of silvics, not of the game's data."""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    return path
