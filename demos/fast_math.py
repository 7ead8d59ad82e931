"""The fast layer's first counterexample, shrunk and explained (Chapter 10).

    python demos/fast_math.py

`test_fast_math_unsound` (the layer `fast` of tests/test_pipeline.py) simplifies random float
programs with the fast-math rules and stops at the first input on which a program's value
changes. This demo asks the layer's own `fast_program` for its programs in the same order, at
the book's sizes, so the first counterexample it prints is the one the layer records. Then:

- block `first`: that program's seed, size, inputs and both values; and each fast rule added
  alone to the strict rules, to name the one that changes the value;
- block `shrunk`: the program shrunk (`verify/shrink.py`) to the smallest that keeps the same
  kind of difference (NaN before, a finite number after), printed whole in the text format,
  read back with `loads`, and simplified strictly and with fast math.

Every line is the same on every run. A printed claim that is false (the values are not NaN
against a finite number, not exactly one fast rule changes it, shrinking did not stop) makes
the program exit with a non-zero status.
"""

from _common import block, claim, finish, state

import gc
import math
import sys

from uopc.interp import evaluate
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.semantics import same
from uopc.symbolic import FAST, default, simplify
from uopc.textfmt import dumps, infix, loads
from verify import layers
from verify.shrink import candidates, shrink

PROGRAMS, INPUTS = (layers.SIZES["fast"][name][1] for name in ("programs", "inputs"))


def first_counterexample() -> tuple:
    """(n, seed, root, env): the fast layer's first program that fast math changes."""
    for n in range(PROGRAMS):
        seed, root, env, _ = layers.fast_program(n, INPUTS)
        if env is not None:
            return n, seed, root, env
    raise SystemExit(f"no counterexample in {PROGRAMS} programs: the fast layer would fail too")


def nan_to_finite(env):
    """The test shrink keeps true: NaN before fast math, a finite number after, at env."""

    def check(program) -> bool:
        before, after = evaluate(program, env), evaluate(simplify(program, fast_math=True), env)
        return math.isnan(before) and math.isfinite(after)

    return check


def rules_that_change(program, env) -> list[str]:
    """The fast rules that, each added alone to the strict rules, change program's value."""
    want = evaluate(program, env)
    changed = []
    for fast_rule in FAST:
        alone = graph_rewrite(program, default + PatternMatcher([fast_rule]))
        if not same(evaluate(alone, env), want):
            changed.append(fast_rule.name)
    return changed


def show_first(env, n: int, seed: int, root) -> str:
    """Block first: the counterexample as the layer found it, and the rule that makes it."""
    block("first")
    faster = simplify(root, fast_math=True)
    before, after = evaluate(root, env), evaluate(faster, env)
    print(f"the fast layer's first counterexample: program {n} of {PROGRAMS}, seed {seed}")
    print(f"  {len(root.toposort())} nodes, inputs by slot {env}")
    print(f"  the program: {infix(root)}")
    print(f"  with the fast rules it becomes: {infix(faster)}")
    print(f"  original: {before!r}; with the fast rules: {after!r}")
    claim(math.isnan(before) and math.isfinite(after), "the first: nan against a finite number")
    print("each fast rule added alone to the strict rules:")
    changing = rules_that_change(root, env)
    for fast_rule in FAST:
        verdict = "changes the value" if fast_rule.name in changing else "keeps the value"
        print(f"  {fast_rule.name:<20} {verdict}")
    claim(len(changing) == 1, "exactly one fast rule changes the first counterexample")
    return changing[0] if changing else "none"


def show_shrunk(env, root, culprit: str) -> int:
    """Block shrunk: the smallest program with the same kind of difference; returns its size."""
    check = nan_to_finite(env)
    text = dumps(shrink(root, check))
    gc.collect()  # the shrink's candidates are gone: the loaded nodes are new, in text order
    program = loads(text)
    block("shrunk")
    print("shrunk until no single replacement keeps it nan before the fast rules and a finite")
    print("number after them, at the same inputs:")
    print(text.rstrip("\n"))
    print(f"  as one line: {infix(program)}")
    for name, fast_math in (("strict rules", False), ("fast rules", True)):
        result = simplify(program, fast_math=fast_math)
        print(f"  {name + ':':<13} {infix(result)}  value {evaluate(result, env)!r}")
    changing = rules_that_change(program, env)
    print(f"  the fast rule that changes it: {', '.join(changing) or 'none'}")
    claim(check(program), "the shrunk program keeps nan against a number after loads")
    claim(changing == [culprit], "the same fast rule changes the shrunk program")
    claim(not any(check(c) for c in candidates(program)), "shrinking stopped here")
    return len(program.toposort())


def main() -> int:
    n, seed, root, env = first_counterexample()
    culprit = show_first(env, n, seed, root)
    nodes = show_shrunk(env, root, culprit)
    state("fast_first_seed", seed, "the seed of the fast layer's first counterexample")
    state("fast_first_nodes", len(root.toposort()), "nodes of that program")
    state("fast_first_rule", culprit, "the fast rule that alone changes its value (words)")
    state("fast_shrunk_nodes", nodes, "nodes of it shrunk, nan before and a number after kept")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
