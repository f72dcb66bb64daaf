"""Each bundled game's card text, generated from its IR and vocabulary, kept in
tests/cardtext/GAME.txt beside the source each line came from, so that a reviewer reads every
card's wording and any change to it shows in a diff.

    python tests/cardtext_golden.py GAME…      rewrite the files (after a reviewed change)

tests/cardtext/GAME-rules.txt holds every procedure the same way, step by step.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from silvics import games
from silvics.compiler.cardtext import card_text
from silvics.compiler.english import Wording

FOLDER = Path(__file__).parent / "cardtext"

# Effect-language syntax that must never reach a player: names_with_underscores, calls such as
# count( or of_species(, comparison signs, `where`, and brackets of a literal list.
SYNTAX = re.compile(r"\w+_\w+|\b[a-z]\w*\(|[=<>]|\bwhere\b|\[|\]")


def every_card(ir):
    """The game's cards and every module's, each once, in the order the data lists them."""
    seen = {}
    for card in (*ir.cards, *(c for m in ir.modules.values() for c in m.cards)):
        seen.setdefault(card.id, card)
    return list(seen.values())


def generated(game_id: str) -> str:
    ir = games.load(game_id, use_cache=False)
    wording, out = Wording(ir.vocabulary), []
    for card in every_card(ir):
        for side in card_text(ir, card, wording):
            if not side.lines:
                continue
            out.append(f"{card.id}" + (f" ({side.side})" if len(card.sides) > 1 else "") + f": {side.name}")
            for line, (name, source) in zip(side.lines, side.source):
                out += [f"  {line}", f"    as written: {name}: {source}"]
    return "\n".join(out) + "\n"


def generated_rules(game_id: str) -> str:
    """Every procedure of the game and its modules, step by step, as the rules reference words it."""
    ir = games.load(game_id, use_cache=False)
    wording, out = Wording(ir.vocabulary), []
    sources = [("", ir.procedures)] + [(f"{name}: ", {**{f"before {p}": b for p, b in m.before.items()},
                                                       **m.procedures, **{f"after {p}": b for p, b in m.after.items()}})
                                       for name, m in ir.modules.items()]
    for prefix, procedures in sources:
        for name, body in procedures.items():
            steps = body.args.get("steps", (body,)) if body.op == "block" else (body,)
            out.append(f"{prefix}{name}")
            out += [f"  {i}. {text}" for i, text in enumerate(wording.steps(tuple(steps)), 1)]
    return "\n".join(out) + "\n"


def syntax_left(game_id: str) -> list[str]:
    """Lines of generated card text that still show effect-language syntax."""
    return [line.strip() for line in generated(game_id).splitlines()
            if line.startswith("  ") and not line.startswith("    as written:") and SYNTAX.search(line)]


def rules_syntax_left(game_id: str) -> list[str]:
    """Steps of the generated rules that still show effect-language syntax."""
    return [line.strip() for line in generated_rules(game_id).splitlines()
            if line.startswith("  ") and SYNTAX.search(line)]


def stale(game_id: str) -> list[str]:
    """The files of tests/cardtext/ for the game that differ from what is generated now."""
    files = {f"{game_id}.txt": generated(game_id), f"{game_id}-rules.txt": generated_rules(game_id)}
    return [name for name, text in files.items() if (FOLDER / name).read_text(encoding="utf-8") != text]


def unworded_procedures(ir) -> set[str]:
    """Procedures of the game and its modules that no phrase names: each is a heading of the
    rules page, and reads as its phrase wherever a step runs it."""
    named = {p.pattern[0].args["name"] for p in ir.vocabulary.phrases if p.pattern[0].op == "call"}
    return {name for rules in (ir, *ir.modules.values()) for name in rules.procedures} - named


def problems(game_id: str) -> list[str]:
    """How the reviewed files of a game differ from what is generated, and the syntax left in
    them: none when all is well."""
    return [f"tests/cardtext/{name} is not what is generated: regenerate with "
            f"`python tests/cardtext_golden.py {game_id}` and review the diff" for name in stale(game_id)] + \
        [f"effect-language syntax left: {line}" for line in syntax_left(game_id) + rules_syntax_left(game_id)]


if __name__ == "__main__":
    for game in sys.argv[1:]:
        (FOLDER / f"{game}.txt").write_text(generated(game), encoding="utf-8")
        (FOLDER / f"{game}-rules.txt").write_text(generated_rules(game), encoding="utf-8")
        print(f"wrote {FOLDER / f'{game}.txt'} and {game}-rules.txt")
