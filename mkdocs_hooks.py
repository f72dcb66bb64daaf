"""mkdocs hooks for this repository's site (mkdocs.yml: `hooks:`): the site carries the font the
card faces are measured with (compiler/fonts, with its licence and the style sheet naming it),
so that a face reads on a page as it prints. A game's own site has the same folder written
beside its pages instead (silvics.reference.write_fonts). Read from the checkout, as the site is."""

from __future__ import annotations

import shutil
from pathlib import Path

FONTS = Path(__file__).parent / "compiler" / "fonts"


def on_config(config):
    config.extra_css.append("fonts/faces.css")
    return config


def on_post_build(config):
    shutil.copytree(FONTS, Path(config.site_dir) / "fonts", dirs_exist_ok=True)
