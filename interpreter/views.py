"""What each seat may see: zone visibility, face-down cards, the log as a seat may read it,
and worlds dealt anew from what a seat cannot see.

public zones: face-up cards are seen by all, face-down ones only by whoever placed them;
owner zones: seen by their player; hidden zones (decks, the box): by no one.
"""

from __future__ import annotations

from .draws import shuffle
from .state import Said, parse_key, written

SEEN = "_seen_by"  # the mark `look` leaves: the seats that have inspected a card where it lies
MOVING = ("move", "refill", "turn")  # the log lines that change where a card lies or how it faces


def visible(game, seat: int, uid: int) -> bool:
    state = game.state
    marks = state.marks[uid]
    if marks and seat in marks.get(SEEN, ()):
        return True
    return in_sight(game.rules, seat, state.location[uid], state.facedown[uid], state.placer[uid])


def in_sight(rules, seat: int, key: str, facedown: bool, placer: int) -> bool:
    """Whether `seat` sees a card lying in zone `key`, face down or up, put there by `placer`."""
    visibility, owner = rules.sight.get(key) or zone_sight(rules, key)
    if visibility == "public":
        return not facedown or placer == seat
    return visibility == "owner" and owner == seat


def seat_label(game, seat: int, key: str, placed: bool = False) -> str:
    """A zone's label as `seat` may read it; a zone on a card the seat cannot see, or on any card
    when `placed` (two copies of a card both holding cards), is named by where that card lies:
    under@deck#2 (on the second card from the bottom of the deck)."""
    state = game.state

    def owner(uid: int) -> str:
        if not placed and visible(game, seat, uid):
            return game.card_id(uid)
        where = state.location[uid]
        return f"{seat_label(game, seat, where)}#{state.zones[where].index(uid) + 1}"

    return game.zone_label(key, owner)


def zone_sight(rules, key: str) -> tuple:
    """A zone key's visibility, and the seat owning it (for a zone of each player's), worked
    out once per key (rules.sight)."""
    parts = parse_key(key)
    decl = rules.zones[parts.name]
    rules.sight[key] = sight = (decl.visibility, parts.owner if decl.per == "player" else None)
    return sight


def card_label(game, seat: int, uid: int, options=()) -> str:
    """A card as `seat` may name it (choice labels): its id, or where it lies if hidden from
    them; and where it lies when another of the `options` is a copy the seat sees elsewhere
    (one in hand, one on the table: `apple from hand@1`), so that an answer given by label
    picks the same card. (The log says a card picked with no copies later, from what it kept:
    picked_label; change both together.)"""
    location = game.state.location
    where = location[uid]
    if not visible(game, seat, uid):
        return hidden_from(game.rules, where)
    defs = game.rules.defs
    card = defs[uid]
    if card.copies > 1:
        # (a loop written out, not any(): a choice's label is worked out at every decision)
        for other in options:
            if defs[other] is card and location[other] != where and visible(game, seat, other):
                return f"{card.id} from {game.zone_label(where)}"
    return card.id


def picked_label(rules, seat: int, uid: int, lay: tuple, seen: bool) -> str:
    """card_label of a card picked, said when the log is read (Said.label) from what the log
    kept of the moment: where the card lay (`lay`: zone key, face down, placer) and whether the
    chooser had looked at it there (`seen`). For a card with no copies: no other option could
    be named alike, so card_label needs nothing more (Game.apply decides)."""
    if seen or in_sight(rules, seat, *lay):
        return rules.defs[uid].id
    return hidden_from(rules, lay[0])


def hidden_from(rules, where: str) -> str:
    """A card a seat cannot see, named by the zone it lies in (card_label, picked_label)."""
    return f"a hidden card from {rules.zone_label(where)}"


def seen_log(game, seat: int) -> list[str]:
    """The game log as `seat` may read it: a card is named only when the seat could see it at
    that line, `?` otherwise, and so is a card a zone is attached to (under@?).

    The log keeps no record of who saw what, so this is worked out backwards from the table
    as it is now: a card the seat sees now by where it lies (a look at it aside), and which no
    later line has moved or turned, lay just so at that line. That hides more than it must (a
    card seen then and moved since is `?` in the earlier lines; the later ones name it) and
    never less. A choice names its card to other seats as that card lay when chosen.

    Agents read it at every decision, so each game keeps it per seat (SeenLog) and writes
    again only the lines that may read otherwise now."""
    kept = game.seen_logs.get(seat)
    if kept is None or not kept.follows(game.state.log):
        kept = game.seen_logs[seat] = SeenLog(game.state.log)
    return list(kept.update(game, seat))


class SeenLog:
    """One seat's reading of one game's log, kept up to date. A line reads otherwise later
    only when a card it names (or tried to) reads otherwise: moved by a later line (then `?`
    for good), or lying elsewhere or turned now (then seen or not as it lies). So each line
    keeps the cards it may still name ("live"), and each such card how it lay when last read."""

    __slots__ = ("log", "lines", "live", "naming", "lay")

    def __init__(self, log: list):
        self.log = log  # the log list read (a game's own: appended to, never rewritten)
        self.lines: list[str] = []  # the lines read so far, as written
        self.live: list[frozenset] = []  # per line: the cards it names or may name still
        self.naming: dict[int, set[int]] = {}  # card -> the lines that may name it
        self.lay: dict[int, tuple] = {}  # card -> (zone, face down, placer) when last read

    def follows(self, log: list) -> bool:
        return log is self.log and len(log) >= len(self.lines)

    def update(self, game, seat: int) -> list[str]:
        state, read = game.state, len(self.lines)
        lying = lambda uid: (state.location[uid], state.facedown[uid], state.placer[uid])  # noqa: E731
        fresh: list[tuple[str, frozenset]] = []  # (text, the cards it may name) a line
        moved: set[int] = set()
        for what, uids, detail in reversed(self.log[read:]):  # the new lines, backwards
            fresh.append(_seen_line(game, seat, what, uids, detail, moved))
            if what in MOVING:
                moved.update(uids)
        changed = moved | {uid for uid, lay in self.lay.items() if lay != lying(uid)}
        again = sorted({line for uid in changed for line in self.naming.pop(uid, ())})
        for line in again:
            what, uids, detail = self.log[line]
            self.lines[line], live = _seen_line(game, seat, what, uids, detail, moved, self.live[line])
            self._name(line, live)
        for line, (text, live) in enumerate(reversed(fresh), start=read):
            self.lines.append(text)
            self.live.append(frozenset())
            self._name(line, live)
        for uid in changed:
            self.lay.pop(uid, None)
        for uid in self.naming.keys() - self.lay.keys():
            self.lay[uid] = lying(uid)
        return self.lines

    def _name(self, line: int, live: frozenset):
        """Line `line` may name the cards `live` from now on."""
        for uid in self.live[line] - live:
            self.naming.get(uid, set()).discard(line)
        self.live[line] = live
        for uid in live:
            self.naming.setdefault(uid, set()).add(line)


def _seen_line(game, seat: int, what: str, uids, detail, later: set, may=None) -> tuple[str, frozenset]:
    """A log line as `seat` reads it, with `later` the cards moved by the lines after it (and,
    when given, `may` the only cards it may still name): its text, and the cards it may name
    still (those it asked to name that no later line moved)."""
    state, asked = game.state, set()

    def name(uid: int) -> str:
        asked.add(uid)
        sees = (
            uid not in later
            and (may is None or uid in may)
            and in_sight(game.rules, seat, state.location[uid], state.facedown[uid], state.placer[uid])
        )
        return game.card_id(uid) if sees else "?"

    def label(key: str) -> str:
        return game.zone_label(key, name)

    if (
        isinstance(detail, Said)
        and detail.seat != seat
        and detail.card is not None
        and not in_sight(game.rules, seat, *detail.lay)
    ):
        detail = detail.heard(label(detail.lay[0]))
    text = written(what, uids, detail, name, label)
    return text, frozenset(uid for uid in asked if uid not in later and (may is None or uid in may))


def shuffled_unseen(game, seat: int, rng, unseen: list[int] | None = None) -> list[int]:
    """A deal consistent with what `seat` sees, for Rules.dealt: every card the seat cannot see
    shows the card of an unseen card of its kind (card backs tell kinds apart), at random. The
    cards themselves stay where they are, with their face, side, placer and marks, and so does
    every name bound to them: only what is printed on the unseen ones changes.

    The deal is made from what the seat knows, the printed cards it does not see (listed by id),
    and `rng` alone: a deal made by reshuffling the real one, which `rng`'s owner can replay,
    would tell it the real one. `unseen`: unseen_cards(game, seat), when worked out already."""
    defs = game.rules.defs
    order = list(range(len(defs)))
    by_kind: dict[str, list[int]] = {}
    for uid in unseen_cards(game, seat) if unseen is None else unseen:
        by_kind.setdefault(defs[uid].kind, []).append(uid)
    for cards in by_kind.values():
        shown = sorted(cards, key=lambda uid: defs[uid].id)  # copies of a card are alike
        shuffle(rng, shown)
        for uid, other in zip(cards, shown):
            order[uid] = other
    return order


def unseen_cards(game, seat: int) -> list[int]:
    """The cards `seat` cannot see (not `visible`), in uid order: worked out zone by zone, for
    a search samples a world at every decision."""
    state, rules = game.state, game.rules
    facedown, placer, marks = state.facedown, state.placer, state.marks
    found: list[int] = []
    for key, pile in state.zones.items():
        visibility, owner = rules.sight.get(key) or zone_sight(rules, key)
        if visibility == "public":
            found += [uid for uid in pile if facedown[uid] and placer[uid] != seat]
        elif visibility != "owner" or owner != seat:
            found += pile
    return sorted(uid for uid in found if not (marks[uid] and seat in marks[uid].get(SEEN, ())))
