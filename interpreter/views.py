"""What each seat may see: zone visibility, face-down cards, and guesses at the rest.

public zones: face-up cards are seen by all, face-down ones only by whoever placed them;
owner zones: seen by their player; hidden zones (decks, the box): by no one.
"""
from __future__ import annotations

from .state import EVERYTHING, parse_key


SEEN = "_seen_by"      # the mark `look` leaves: the seats that have inspected a card where it lies


def visible(game, seat: int, uid: int) -> bool:
    state = game.state
    marks = state.marks[uid]
    if marks and seat in marks.get(SEEN, ()):
        return True
    parts = parse_key(state.location[uid])
    decl = game.rules.zones[parts.name]
    if decl.visibility == "hidden":
        return False
    if decl.visibility == "owner":
        return decl.per == "player" and parts.owner == seat
    return not state.facedown[uid] or state.placer[uid] == seat


def view(game, seat: int) -> dict[str, list[str]]:
    """Every non-empty zone as this seat sees it: card ids, or '?' for a card it cannot see."""
    return {key: [game.card_id(uid) if visible(game, seat, uid) else "?" for uid in pile]
            for key, pile in game.state.zones.items() if pile and key != "box"}


def determinize(game, seat: int, rng):
    """A copy of the game in which every card this seat cannot see has been swapped at random
    with the other unseen cards of its kind (card backs tell kinds apart), so an agent that
    searches the copy learns nothing it could not know (its random generator is reseeded too)."""
    world = game.copy()
    state = world.state
    by_kind: dict[str, list[int]] = {}
    for uid in range(len(state.location)):
        if not visible(game, seat, uid):
            by_kind.setdefault(game.rules.defs[uid].kind, []).append(uid)
    state.reseed(rng.random())      # nor may it foresee the game's future shuffles
    for hidden in by_kind.values():
        places = [(state.location[uid], state.zones[state.location[uid]].index(uid)) for uid in hidden]
        rng.shuffle(hidden)
        for (key, index), uid in zip(places, hidden):
            state.zones[key][index] = uid
            state.location[uid] = key
    state.stamp(EVERYTHING)          # every remembered value may have read a swapped card
    return world
