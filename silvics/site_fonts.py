"""An mkdocs hook for this repository's site (mkdocs.yml: `hooks:`): the site carries the font
the card faces are measured with, so a face reads on the page as it prints. A game's own site
has the font written into its pages' folder instead (reference.write_fonts)."""

from __future__ import annotations

from pathlib import Path

from silvics.reference import FONT_CSS, write_fonts


def on_config(config):
    config.extra_css.append(FONT_CSS)
    return config


def on_post_build(config):
    write_fonts(Path(config.site_dir))
