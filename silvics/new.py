"""`silvics new`: skeletons to start from, each valid at once (it checks and plays), with
comments that say what to change.

- `new game NAME`: a project folder holding a small complete game, its card file, and the
  JSON Schemas its files' first lines point editors at;
- `new pack GAME NAME`: a pack folder adding one card (a copy of one of the game's own) and a
  module to fill in;
- `new card GAME KIND`: one card of a kind, every attribute filled in from the game's own
  cards, with the allowed values in comments.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from silvics.compiler.cardtext import as_written
from silvics.compiler.gameschema import card_schema
from silvics.compiler.validate import schemas
from silvics.errors import UsageError
from silvics.interpreter.ir import GameIR

NAME = re.compile(r"[a-z][a-z0-9-]*")
NAME_MAX = 255  # characters of a file name on the common file systems (ext4, APFS, NTFS)

GAME = """\
# yaml-language-server: $schema=../../schemas/game.schema.json
# {title}: made by `silvics new game {name}`. A small complete game to grow from: each round,
# every player draws 2 cards and plays 1 of their hand to their patch; after 3 rounds, each
# scores the value of the cards in their patch. Check it: silvics check rules/{name}
# Play it:  silvics play {name}      The format: https://silvics.dev/rules-format/
id: {name}
name: {title}
players: {{min: 2, max: 4}}
cards: [../../cards/{name}/cards.yaml]
kinds:
  seed:
    attributes:
      value: {{type: int}}                           # points at the end
      colour: {{type: enum, values: [red, green, blue]}}
zones:
  deck: {{visibility: hidden}}
  hand: {{per: player, visibility: owner}}
  patch: {{per: player, visibility: public}}         # the cards each player has played
procedures:
  setup:
    - move box where kind = seed to deck
    - shuffle deck
  play:
    - repeat: 3
      do:
        - each player: [move 2 from deck to hand]
        - each player: [plant]
  plant:                                            # one turn: a card from your hand to your patch
    - choose card from hand
    - move card to patch face up
  scoring:
    - each player:
        - score sum(c.value for c in patch)
vocabulary:                                         # how the rules reference words the rules
  phrases:
    deck: the deck
    hand: your hand
    patch: your patch
    plant: plant a seed
    "move N from deck to hand": draw {{N}} {{N|card|cards}}
    "choose C from hand; move C to patch face up": play a card from your hand to your patch
"""

CARDS = """\
# yaml-language-server: $schema=../../schemas/{name}-cards.schema.json
# The cards of {title}. Add a card, then: silvics check cards/{name}/cards.yaml
kind: seed
cards:
  - {{id: poppy, name: Poppy, value: 1, colour: red, copies: 6}}
  - {{id: clover, name: Clover, value: 2, colour: green, copies: 4}}
  - {{id: cornflower, name: Cornflower, value: 3, colour: blue, copies: 2}}
"""

README = """\
# {title}

Made by `silvics new game {name}`.

    silvics check .                 # check every game under rules/ (add --watch while you edit)
    silvics play {name}             # a whole game between bots
    silvics show {name} poppy       # a card as it is printed
    silvics docs {name} -o site     # the rules reference

`rules/{name}/game.yaml` holds the rules, `cards/{name}/cards.yaml` the cards. The files' first
lines point your editor at the schemas in `schemas/`; after adding kinds or attributes, write
the card schema again with `silvics schema {name} -o schemas/{name}-cards.schema.json`.
"""

PACK = """\
# yaml-language-server: $schema=schemas/pack.schema.json
# {title}: a pack for {game}, made by `silvics new pack {game_id} {name}`. Its cards join the
# game; its module is a variant players switch on.
# Check it: silvics check {name}      Play it: silvics play {name} [--module {name}]
name: {title}
description: {description}
extends: {game_id}
cards: [cards/]
modules: [modules/]
"""

MODULE = """\
# yaml-language-server: $schema=../schemas/module.schema.json
# A module changes the game only when a player switches it on (--module {name}): it may bring
# cards of its own (in the game only while it is on), replace procedures, or add steps before
# or after them. This one changes nothing yet. See https://silvics.dev/rules-format/#modules
name: {name}
description: {description}
# cards: [../variant-cards/]          # card files only this module brings
# before:
#   setup: [...]                      # steps run before the game's setup
"""


def new_game(folder: Path, name: str) -> list[Path]:
    """A project folder with a small complete game; the paths written."""
    check_name(name, "-cards.schema.json")
    title = name.replace("-", " ").title()
    files = {
        folder / "rules" / name / "game.yaml": GAME.format(name=name, title=title),
        folder / "cards" / name / "cards.yaml": CARDS.format(name=name, title=title),
        folder / "README.md": README.format(name=name, title=title),
    }
    files |= {
        folder / "schemas" / f"{kind}.schema.json": _json(schema)
        for kind, schema in schemas().items()
        if kind != "ir"
    }
    written = _write_new(files)
    from silvics.compiler.build import compile_game  # the card schema comes from the game just written

    schema = folder / "schemas" / f"{name}-cards.schema.json"
    return written + _write_new({schema: _json(card_schema(compile_game(folder / "rules" / name)))})


def new_pack(folder: Path, ir: GameIR, name: str) -> list[Path]:
    """A pack folder for the game: one new card (a copy of the game's commonest kind's first
    card, renamed) and a module to fill in."""
    check_name(name, ".yaml")
    if name in ir.modules:
        raise UsageError(f"{ir.name} already has a module '{name}': choose another name")
    title = name.replace("-", " ").title()
    kind = max(ir.kinds, key=lambda k: sum(c.kind == k.name for c in ir.cards)).name
    files = {
        folder / "pack.yaml": PACK.format(
            title=title,
            game=ir.name,
            game_id=ir.id,
            name=name,
            description=json.dumps(
                f"A new card for {ir.name}, and a variant to fill in.", ensure_ascii=False
            ),
        ),
        folder / "modules" / f"{name}.yaml": MODULE.format(
            name=name, description=json.dumps(f"A variant of {ir.name}, to fill in.", ensure_ascii=False)
        ),
        folder / "cards" / f"{name}.yaml": card_file(ir, kind, f"{name}-card", "../schemas"),
    }
    files |= {
        folder / "schemas" / f"{k}.schema.json": _json(schemas()[k])
        for k in ("pack", "module", "game", "scenario")
    }
    files[folder / "schemas" / "cards.schema.json"] = _json(card_schema(ir))
    return _write_new(files)


def card_file(ir: GameIR, kind: str, card_id: str, schemas_at: str = "") -> str:
    """A card file holding one new card of `kind`: the values of the kind's first card, each
    attribute's allowed values in a comment."""
    kinds = {k.name: k for k in ir.kinds}
    if kind not in kinds:
        raise UsageError(f"{ir.name} has no kind '{kind}': its kinds are {', '.join(kinds)}")
    model = next((c for c in ir.cards if c.kind == kind), None) or next(
        (c for m in ir.modules.values() for c in m.cards if c.kind == kind), None
    )
    if model is None:
        raise UsageError(f"{ir.name} has no {kind} card to start from")
    declared = {a.name: a for a in kinds[kind].attributes}
    lines = ([f"# yaml-language-server: $schema={schemas_at}/cards.schema.json"] if schemas_at else []) + [
        f"# A new {kind} of {ir.name}, started from '{model.id}': change its values, then",
        "# silvics check THIS-FILE",
        f"kind: {kind}",
        "cards:",
        f"  - id: {card_id}",
    ]
    sided = len(model.sides) > 1
    if sided:
        lines.append("    sides:")
    for side in model.sides:
        indent = "        " if sided else "    "
        if sided:
            lines.append(f"      {side.side}:")
        lines.append(f"{indent}name: {json.dumps(side.name + ' (new)')}")
        for attribute, value in side.attributes.items():
            source = side.text.get(attribute)
            written = (
                as_written(source)
                if isinstance(source, (tuple, list))
                else _yaml_value(source if isinstance(source, str) else _plain(value))
            )  # steps: YAML's flow style
            values = declared[attribute].values
            hint = (
                f"  # one of: {', '.join(values)}"
                if values and declared[attribute].type == "enum"
                else f"  # any of: {', '.join(values)}"
                if values
                else ""
            )
            lines.append(f"{indent}{attribute}: {written}{hint}")
    return "\n".join(lines) + "\n"


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def _yaml_value(value) -> str:
    """A value on one line of YAML: numbers and plain words as they are, the rest quoted."""
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    if isinstance(value, int) or (isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9_-]*", value)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def check_card_id(card_id: str, ir: GameIR):
    """An id a new card of this game (or pack) may take: one the card schema allows, and no card
    of the game's has (checked before anything is written)."""
    pattern = schemas()["cards"]["$defs"]["card"]["properties"]["id"]["pattern"]  # as a card file says it
    if not re.search(pattern, card_id):
        raise UsageError(f"'{card_id}' cannot be a card's id: lowercase letters, digits and hyphens")
    taken = {card.id for card in (*ir.cards, *(c for module in ir.modules.values() for c in module.cards))}
    if card_id in taken:
        free = next(f"{card_id}-{n}" for n in range(2, len(taken) + 3) if f"{card_id}-{n}" not in taken)
        raise UsageError(
            f"{ir.name} has a card '{card_id}' already: a new card needs an id of its own, such as {free}"
        )


def check_name(name: str, file_ending: str | None = None):
    """A name new may give; with `file_ending`, the longest one of the files named after it,
    which must fit a file name (checked before anything is written)."""
    if not NAME.fullmatch(name):
        raise UsageError(
            f"'{name}' cannot name a game, pack or module: lowercase letters, digits and hyphens, "
            "starting with a letter"
        )
    if file_ending is not None and len(name + file_ending) > NAME_MAX:
        raise UsageError(
            f"a name of {len(name)} characters is too long: files are named after it, "
            f"and {NAME_MAX - len(file_ending)} is the most that fits a file name"
        )


def _json(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def _write_new(files: dict) -> list[Path]:
    """Write the files, none of which may exist yet (nothing is overwritten, nothing half-made)."""
    there = [path for path in files if path.exists()]
    if there:
        raise UsageError(f"{there[0]} exists already: silvics new never overwrites a file")
    blocked = [folder for path in files for folder in path.parents if folder.exists() and not folder.is_dir()]
    if blocked:
        raise UsageError(f"{blocked[0]} is a file, not a folder: name a folder that does not exist yet")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
