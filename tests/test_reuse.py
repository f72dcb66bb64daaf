"""Common parts of generated code worked out once (interpreter/reuse.py): a value worked out
again is read by name only where it was surely worked out before, so the code works out the
same values and faults, and nothing it did not work out before."""
import ast
import random

import pytest

from silvics.interpreter.codegen import Module


class Calls:
    """Pure functions that note every call: `f(n)` a number, `g(n)` a fault when n is 4."""

    def __init__(self):
        self.made: list[tuple[str, int]] = []

    def f(self, n):
        self.made.append(("f", n))
        return (n * 7 + 3) % 5

    def g(self, n):
        self.made.append(("g", n))
        if n == 4:
            raise ValueError("four")
        return n + 1


def run(source: str, rewrite: bool):
    """The expression worked out inside a function the generator's module defines and compiles
    (rewritten by `reused` as every expression's function is, or not): its value or fault, the
    calls it made, and its code."""
    module = Module("test")
    work = module.define("work", ("f", "g", "x"), [ast.Return(ast.parse(source, mode="eval").body)], pure=rewrite)
    module.finish()
    calls = Calls()
    try:
        outcome = ("value", work(calls.f, calls.g, 3))
    except ValueError as error:
        outcome = ("fault", str(error))
    return outcome, calls.made, ast.unparse(module.functions[-1])


@pytest.mark.parametrize("source", [
    "f(x) + f(x)",                                  # one after the other
    "f(x) if f(x) > 1 else 0",                      # the test before a branch
    "f(x) < 9 and f(x) + f(x)",                     # within the later operand
    "f(x) + sum([f(x) * f(y) for y in range(3)])",  # worked out before the loop, read inside
    "round(f(x), ndigits=f(x))",                    # a keyword's value
    "(x < 1 or f(x) > 9) or f(x)",                  # `(a or b) or c`: c runs only after b
    "any(f(y) > 1 for y in range(f(x))) and f(x)",  # the items of an any() made a loop
    "(f(x) if x > 5 else f(x) + 1) + f(x)",         # worked out on both branches
    "f(x) if x > 1 and f(x) > 0 else 0",            # the branch taken when every operand held
    "0 if x < 1 or f(x) > 9 else f(x)",             # the branch taken when every operand failed
])
def test_a_part_worked_out_before_is_read_by_name(source):
    before, calls_before, _ = run(source, rewrite=False)
    after, calls_after, code = run(source, rewrite=True)
    assert after == before
    assert set(calls_after) == set(calls_before)
    assert len(calls_after) < len(calls_before), code
    assert ":=" in code


@pytest.mark.parametrize("source", [
    "(f(x) if x > 5 else 0) + f(x)",          # worked out in a branch not taken
    "(x > 5 and f(x)) + f(x)",                 # in an operand `and` skipped
    "sum([f(1) for y in range(0)]) + f(1)",    # inside a loop that ran no pass
    "f(x) if x > 5 else f(x) + 1",             # in the other branch only
    "f(x) if x > 5 and f(x) > 0 else f(x)",    # an `and` that failed, perhaps before it
    "f(x) if x < 5 or f(x) > 0 else 0",        # an `or` that held, perhaps before it
])
def test_a_part_worked_out_on_some_paths_only_is_worked_out_again(source):
    before, calls_before, _ = run(source, rewrite=False)
    after, calls_after, code = run(source, rewrite=True)
    assert after == before, code          # a name read where nothing bound it would be a NameError
    assert calls_after == calls_before


def test_no_name_is_bound_in_a_comprehensions_iterable():
    """Python refuses `:=` there: the first use inside an iterable stays as it is."""
    _, calls, code = run("sum([y for y in range(f(x))]) + sum([y + 1 for y in range(f(x))])", rewrite=True)
    assert calls == [("f", 3), ("f", 3)]
    assert ":=" not in code


FORMS = [
    "f({})", "g({})", "({} + {})", "({} if {} > 2 else {})", "({} and {})", "({} or {})", "int({} < {} < {})",
    "({} if {} > 2 and {} else {})", "({} if {} or {} > 2 else {})",
]


def expression(rng: random.Random, depth: int, loop: list[str]) -> str:
    """A random expression of numbers, calls, branches, `and`/`or`, chained comparisons and
    loops, reading `x` and the loop variables in scope."""
    leaves = ["x", str(rng.randrange(6)), *loop]
    if depth == 0:
        return rng.choice(leaves)
    form = rng.randrange(len(FORMS) + 2)
    if form < len(FORMS):
        return FORMS[form].format(*(expression(rng, depth - 1, loop) for _ in range(FORMS[form].count("{}"))))
    if form == len(FORMS):
        variable = f"v{depth}"
        body, test = expression(rng, depth - 1, [*loop, variable]), expression(rng, 1, [*loop, variable])
        return f"sum([{body} for {variable} in range({expression(rng, depth - 1, loop)} % 3) if {test} != 1])"
    return rng.choice(leaves)


@pytest.mark.parametrize("seed", range(400))
def test_random_expressions_work_out_the_same_values_faults_and_calls(seed):
    """Small expressions, each written with its parts repeated (the same source twice, joined):
    the rewritten code gives the same value or fault, makes no call the original did not make,
    and never more calls."""
    rng = random.Random(seed)
    part = expression(rng, 4, [])
    source = f"({part}) + ({expression(rng, 2, []) if rng.random() < 0.5 else part}) + ({part})"
    before, calls_before, _ = run(source, rewrite=False)
    after, calls_after, code = run(source, rewrite=True)
    assert after == before, code
    assert set(calls_after) <= set(calls_before), code
    assert len(calls_after) <= len(calls_before), code
    if before[0] == "value":
        assert set(calls_after) == set(calls_before), code


def test_equal_constants_of_other_types_are_other_parts():
    """1 and True are equal in Python, yet `str(1)` is not `str(True)`."""
    (_, value), _, code = run("str(1) + str(True) + str(1.0) + str(1)", rewrite=True)
    assert value == "1True1.01", code
