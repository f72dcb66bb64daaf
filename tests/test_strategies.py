"""Strategies as data (compiler/strategies.py, interpreter/agents.py StrategyAgent): a persona
written in YAML and the effect language, compiled with the game, played by `--agents NAME`.
Each bundled game ships one, and it beats random; a rule applies where it says; a mistake in
one is a diagnostic at its place; it decides from its seat's observation only."""
import random
import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from silvics import bundled, games
from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.interpreter import ir as irmod
from silvics.interpreter.agents import StrategyAgent, make_agent, play_on
from silvics.interpreter.game import Game
from silvics.interpreter.views import shuffled_unseen

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {"four-forests": "gardener", "reforest": "grower", "forest-shuffle": "forester", "renature": "builder"}


@pytest.mark.parametrize("game_id", sorted(SHIPPED))
def test_each_game_ships_a_strategy_that_beats_random(game_id):
    """10 seeded 2-player games, the persona in seat 1 then 2: it wins at least 7."""
    ir, won = games.load(game_id), 0.0
    assert SHIPPED[game_id] in ir.strategies
    for seed in range(10):
        seat = seed % 2
        agents = [make_agent("random", seed, s) for s in range(2)]
        agents[seat] = make_agent(SHIPPED[game_id], seed, seat)
        game = Game(ir, 2, seed)
        play_on(game, agents)
        winners = game.winners()
        won += (seat in winners) / len(winners)
    assert won >= 7, f"{SHIPPED[game_id]} won {won} of 10"


def at_decision(game_id: str, prompt: str, seed: int = 1, players: int = 2) -> Game:
    game, rng = Game(games.load(game_id), players, seed), random.Random(seed)
    while game.pending.prompt != prompt:
        game.apply(rng.randrange(len(game.pending.options)))
    return game


def test_prefer_keeps_the_options_worth_the_most():
    game = at_decision("four-forests", "cultivate: choose card")
    observation = game.observe(game.pending.seat)
    index = StrategyAgent(1, game.pending.seat, "gardener").choose(observation)
    values = [game.attribute(uid, "value") for uid in game.pending.options]
    assert values[index] == max(values)


def test_prefer_reads_names_bound_earlier_and_spaces_as_the_option():
    """Reforest's grower, at 'grow: choose space', prefers a space where the card chosen just
    before costs nothing: `price(card, option) = 0`."""
    game = at_decision("reforest", "grow: choose space", seed=4)
    seat, options = game.pending.seat, game.pending.options
    chosen = StrategyAgent(2, seat, "grower").choose(game.observe(seat))
    price = game.rules.build(game.rules.ir.strategies["grower"].rules[2].prefer)
    env = dict(game.state.stack[-1].env)
    free = [i for i, space in enumerate(options) if price(game, {**env, "you": seat, "option": space})]
    assert (chosen in free) if free else 0 <= chosen < len(options)


def test_pick_keeps_the_first_label_offered():
    game = at_decision("four-forests", "vote: choose way")
    labels = game.observe(game.pending.seat).labels
    assert labels[StrategyAgent(3, game.pending.seat, "gardener").choose(game.observe(game.pending.seat))] == "for"


def test_a_strategy_decides_from_what_its_seat_sees():
    """The same observation, other hidden cards (other hands, deck order): the same answer."""
    game = at_decision("four-forests", "vote: choose creature", seed=2, players=3)
    seat = game.pending.seat
    other = game.redealt(shuffled_unseen(game, seat, random.Random(5)))
    answers = {StrategyAgent(9, seat, "gardener").choose(g.observe(seat)) for g in (game, other)}
    assert len(answers) == 1


def test_strategies_round_trip_through_the_ir():
    compiled = compile_game(bundled.games()["reforest"])
    assert irmod.loads(irmod.dumps(compiled)).strategies == compiled.strategies
    rule = compiled.strategies["grower"].rules[1]
    assert rule.at == "grow: choose card" and rule.prefer.op and rule.span.line > 0


def copy_of(game_id: str, tmp_path) -> Path:
    for folder in ("rules", "cards"):
        shutil.copytree(ROOT / folder / game_id, tmp_path / folder / game_id)
    return tmp_path / "rules" / game_id / "game.yaml"


@pytest.mark.parametrize("edit, code, message, hint", [
    ("      - at: cultivate\n", "E0401", "no procedure 'cultivat'", "did you mean 'cultivate'?"),
    ("        prefer: value\n", "E0402", "prefer: needs a number or a condition", "e.g. prefer: value"),
    ("        prefer: 0 - value\n", "E0301", "syntax error", ""),
])
def test_a_mistake_in_a_strategy_is_a_diagnostic_at_its_place(tmp_path, edit, code, message, hint):
    game = copy_of("four-forests", tmp_path)
    text = game.read_text()
    broken = {"      - at: cultivate\n": "      - at: cultivat\n",
              "        prefer: value\n": "        prefer: forest\n",
              "        prefer: 0 - value\n": "        prefer: 0 - - \n"}[edit]
    game.write_text(text.replace(edit, broken, 1))
    with pytest.raises(CompileError) as caught:
        compile_game(game)
    found = [d for d in caught.value.diagnostics if d.code == code and message in d.message]
    assert found and hint in found[0].hint, caught.value.render()
    line = text[:text.index(edit)].count("\n") + 1
    assert found[0].line == line and found[0].file.endswith("game.yaml")


def test_play_simulate_and_saves_take_a_strategy_by_name(tmp_path):
    status, out, _ = run_cli("play", "four-forests", "--players", 2, "--agents", "gardener,random", "--quiet")
    assert status == 0 and "Final scores:" in out
    status, _, err = run_cli("play", "four-forests", "--agents", "gardner")
    assert status == 2 and re.search(r"--agents takes one of random, .*ismcts, gardener, or 4 of them, one per seat, "
                                     r"separated by commas \(random,greedy,montecarlo,ismcts\)", err)
    market = tmp_path / "market"                  # 6 seats and no strategy: more seats than agents
    shutil.copytree(Path(__file__).parent / "fixtures" / "games" / "market", market)
    (market / "game.yaml").write_text((market / "game.yaml").read_text().replace("max: 3}", "max: 6}", 1))
    status, _, err = run_cli("play", market, "--players", 6, "--agents", "random,greedy")
    assert status == 2 and "or 6 of them, one per seat, separated by commas (random,greedy,montecarlo,ismcts,random,greedy)" in err, err
    save = tmp_path / "game.json"
    status, played, _ = run_cli("play", "reforest", "--players", 2, "--agents", "grower", "--save", save)
    assert status == 0 and '"agent": "grower"' in save.read_text()
    assert run_cli("replay", save)[1] == played
    status, out, _ = run_cli("simulate", "renature", "--games", 4, "--players", 2, "--agents", "builder,random")
    assert status == 0 and "agents builder,random" in out
