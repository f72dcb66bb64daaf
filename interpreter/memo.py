"""Remembered values (Game.remembered): a definition's value kept until what it read changes,
and kept on even then when what it used is worked out again to the same values.

A value read the state (zones, counters, markers, scores, each noted by `game.pile` and
`game.depends_on`) and other remembered values. Each change to the state stamps what it
changed with a fresh number from one clock (state.py), so a value is good while the stamps of
everything it read, directly or through the values it used, are unchanged: one comparison of
two tuples, the common case. When they are not, the value is checked more closely before it
is worked out again (an "early cut-off"): if what it read itself is unchanged, and every
value it used is, once brought up to date, the same as the one it used, the value is still
good.

The values used are brought up to date in the order they were first used: while everything
read before one is unchanged, the work would ask that one with the same key, so working it
out cannot fail where the work itself would not.
"""
from __future__ import annotations


class Remembered:
    """One value remembered under `key`, worked out by `work(game, env, key)` (env None: from
    the key alone). `keys` are every state key it read, through the values it used too, with
    their `stamps` then; `own` and `own_stamps` the keys it read itself; `used` the
    remembered values it used (each as it was then); `good` the clock when last found good."""
    __slots__ = ("key", "work", "value", "keys", "stamps", "own", "own_stamps", "used", "good")

    def __init__(self, key, work, value, own: set, used: list, stamps: dict, clock: int):
        self.key, self.work, self.value = key, work, value
        self.own = tuple(own)
        self.own_stamps = tuple(map(stamps.get, self.own))
        self.good = clock
        self.rely_on(used, stamps)

    def rely_on(self, used, stamps: dict):
        """Use these remembered values (each once, in the order first used): every key read is
        theirs and its own."""
        self.used = tuple(dict.fromkeys(used))
        keys = set(self.own)
        for value in self.used:
            keys.update(value.keys)
        self.keys = tuple(keys)
        self.stamps = tuple(map(stamps.get, self.keys))


def same(a, b) -> bool:
    """The same value, told apart by type too (True and 1 are not the same answer)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(map(same, a, b))
    return a == b
