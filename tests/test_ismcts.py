"""Information-set MCTS (interpreter/agents.py ISMCTSAgent) and every agent's contract: an
agent answers with an option it was offered, in every game; ISMCTS decides from what its seat
has seen (the same observation gives the same answer, whatever the hidden cards and the order
of a shuffled pile), and it plays better than random."""
import random

import pytest

from silvics import games
from silvics.interpreter.agents import AGENTS, ISMCTSAgent, MonteCarloAgent, make_agent, play_on
from silvics.interpreter.game import Game
from silvics.interpreter.views import shuffled_unseen

GAMES = ["four-forests", "reforest", "forest-shuffle", "renature"]
CHEAP = {"ismcts": lambda seed, seat: ISMCTSAgent(seed, seat, iterations=6, depth=6),
         "montecarlo": lambda seed, seat: MonteCarloAgent(seed, seat, rollouts=1)}


class Checked:
    """Passes the question on, and checks the answer is one of the options offered."""

    def __init__(self, agent, answers: list):
        self.agent, self.answers = agent, answers

    def choose(self, observation) -> int:
        index = self.agent.choose(observation)
        assert isinstance(index, int) and 0 <= index < observation.option_count, (index, observation.prompt)
        self.answers.append(index)
        return index


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_answers_with_an_offered_option_in_every_game(game_id, name):
    """The first decisions of a 2-player game with the agent in both seats (the budget of the
    search agents cut down: the contract, not their strength, is tested here; a flat Monte
    Carlo playout runs to the end of the game, so it answers fewer)."""
    game, answers, wanted = Game(games.load(game_id), 2, 7), [], 8 if name == "montecarlo" else 25
    make = CHEAP.get(name, lambda seed, seat: make_agent(name, seed, seat))
    agents = [Checked(make(7, seat), answers) for seat in range(2)]
    while game.pending is not None and len(answers) < wanted:
        seat = game.pending.seat
        game.apply(agents[seat].choose(game.observe(seat)))
    assert len(answers) == wanted or game.over


def paused_four_forests(seed: int) -> Game:
    """Four Forests, 3 players, at seat 1's second decision: other hands and the deck unseen."""
    game = Game(games.load("four-forests"), 3, seed)
    rng = random.Random(seed)
    while not (game.pending.seat == 0 and len(game.state.choices) >= 3):
        game.apply(rng.randrange(len(game.pending.options)))
    return game


def test_ismcts_answers_the_same_whatever_it_cannot_see():
    """Two games that differ only in what seat 1 cannot see (the other hands, the order of the
    deck): the same agent seed gives the same answer, after the same search."""
    game = paused_four_forests(5)
    other = game.redealt(shuffled_unseen(game, 0, random.Random(99)))
    hidden = lambda g: [g.card_id(uid) for key in ("hand/1", "hand/2", "deck") for uid in g.state.zones[key]]  # noqa: E731
    assert hidden(game) != hidden(other)
    assert game.observe(0).labels == other.observe(0).labels
    answers = {ISMCTSAgent(11, 0, iterations=40).choose(g.observe(0)) for g in (game, other)}
    assert len(answers) == 1


def test_ismcts_search_never_touches_the_real_game():
    game = paused_four_forests(6)
    before = (game.state.choices[:], [list(z) for z in game.state.zones.values()], game.state.rng.getstate())
    ISMCTSAgent(3, 0, iterations=30).choose(game.observe(0))
    assert before == (game.state.choices, [list(z) for z in game.state.zones.values()], game.state.rng.getstate())


def test_ismcts_beats_random_at_four_forests():
    """20 seeded 2-player games, ISMCTS in seat 1 then 2 in turn: it wins at least 3 in 4
    (a random player against random wins about half)."""
    ir, won = games.load("four-forests"), 0.0
    for seed in range(20):
        seat = seed % 2
        agents = [make_agent("random", seed, s) for s in range(2)]
        agents[seat] = ISMCTSAgent(seed, seat, iterations=32)
        game = Game(ir, 2, seed)
        play_on(game, agents)
        winners = game.winners()
        won += (seat in winners) / len(winners)
    assert won >= 15


class Pick:
    """A one-decision world: seat 0 picks an option, and the game ends with `scores[option]`."""

    def __init__(self, scores: dict, picked=None):
        self.scores, self.picked = scores, picked
        self.pending = None if picked is not None else type("Choice", (), {
            "seat": 0, "labels": list(scores), "options": list(scores)})()
        self.over = picked is not None
        self.state = type("State", (), {"scores": scores.get(picked)})()

    def apply(self, index: int):
        self.__init__(self.scores, self.pending.options[index])


class Seen:
    """The observation of a Pick world."""
    seat, prompt = 0, "pick"

    def __init__(self, scores: dict):
        self.scores, self.labels, self.option_count = scores, list(scores), len(scores)

    def sample(self, rng, log=True):
        return Pick(self.scores)


def test_ismcts_tells_moves_apart_however_big_the_scores():
    """Leads of 1000 and 1010 points: judged on the scale of the leads the search has seen, the
    better move wins every time (a fixed scale, such as tanh(lead / 10), reads both as 1)."""
    seen = Seen({"worse": [1000, 0], "better": [1010, 0]})
    for seed in range(20):
        assert ISMCTSAgent(seed, 0, iterations=30).choose(seen) == 1, seed


def test_a_time_budget_bounds_a_decision():
    import time
    game = paused_four_forests(7)
    start = time.process_time()
    ISMCTSAgent(1, 0, iterations=10 ** 6, seconds=0.05).choose(game.observe(0))
    assert time.process_time() - start < 0.5


def test_a_search_agent_takes_a_budget_by_name(tmp_path):
    from conftest import run_cli
    from silvics.interpreter.agents import agent_known, build_agent
    assert build_agent("ismcts:16", 1, 0).iterations == 16 and build_agent("montecarlo:3", 1, 0).rollouts == 3
    assert not any(agent_known(name) for name in ("ismcts:0", "ismcts:x", "random:4", "ismcts:1000001"))
    save = tmp_path / "game.json"
    status, played, _ = run_cli("play", "four-forests", "--players", 2, "--agents", "ismcts:4,random", "--save", save)
    assert status == 0 and run_cli("replay", save)[1] == played


@pytest.mark.parametrize("game_id", GAMES)
def test_a_position_scored_now_leaves_the_game_as_it_was_unless_scored_in_place(game_id):
    """What a search credits a playout with: the scores if the game ended now. Worked out on a
    copy, the game goes on untouched; in place (a world thrown away after), the same scores, and
    that game is over."""
    game = Game(games.load(game_id), 2, 3)
    agents = [make_agent("random", 3, seat) for seat in range(2)]
    for _ in range(30):
        game.apply(agents[game.pending.seat].choose(game.observe(game.pending.seat)))
    log, scores, steps = list(game.log), list(game.state.scores), game.state.steps
    scored = game.provisional_scores()
    assert (list(game.log), game.state.scores, game.state.steps, game.over) == (log, scores, steps, False)
    assert game.state.conservation_errors() == []
    assert scored != [0, 0]                                       # (something to score 30 choices in)
    assert game.provisional_scores(in_place=True) == scored and game.over
