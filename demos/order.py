"""Does the answer depend on the order of the rules? 600 index programs, both ways (Chapter 8).

    python demos/order.py

Each program from `gen_index_program` (seeds 0-599) is simplified twice: with the default
matcher, and with the same rules in reverse order. Both results are checked against the program
on a fixed sample of 74 inputs (the 8 corners of the ranges of i, j and k, and 66 points drawn
with a fixed seed); then the pairs are compared. One quoted block, `order`, after a marker line
`@@ block NAME` that the book build strips. Every line is the same on every run.

Then the differing programs are shrunk (`verify/shrink.py`) to the smallest programs that keep a
difference: the smallest whose two results differ at all (block `smallest`), and the smallest on
which each order gives the smaller graph (block `each-way`). Each is printed whole in the text
format, taken back in with `loads` as a reader would, and simplified both ways again.

Two things must hold whatever the generator draws: every result is correct, and some pairs
differ (the rules are not confluent). If either fails, or a shrunk example loses what it was
shrunk for, the program exits with a non-zero status.
"""

from _common import block, claim, finish, state

import gc
import itertools
import random
import sys
from typing import NamedTuple

from uopc.interp import evaluate
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.semantics import same
from uopc.symbolic import default
from uopc.textfmt import dumps, infix, loads
from verify.generators import gen_index_program
from verify.shrink import candidates, measure, shrink

PROGRAMS = 600
RANGES = ((0, 7), (0, 3), (-4, 5))  # i, j, k: the generator's own default ranges
SAMPLE_SEED, SEEDED_POINTS = 1234, 66
NAMES = {0: "i", 1: "j", 2: "k"}


def sample_inputs() -> list[dict]:
    """The corners of the box of ranges, then seeded points inside it: 8 + 66 = 74 inputs."""
    corners = [dict(enumerate(corner)) for corner in itertools.product(*RANGES)]
    r = random.Random(SAMPLE_SEED)
    seeded = [
        {slot: r.randint(lo, hi) for slot, (lo, hi) in enumerate(RANGES)}
        for _ in range(SEEDED_POINTS)
    ]
    return corners + seeded


def size(root) -> int:
    return len(root.toposort())


def nodes(count: int) -> str:
    return f"{count} node" if count == 1 else f"{count} nodes"


def correct(result, inputs, expected) -> bool:
    """Whether result gives the expected value on every input (bit for bit)."""
    pairs = zip(inputs, expected, strict=True)
    return all(same(evaluate(result, env), want) for env, want in pairs)


class Outcome(NamedTuple):
    """What one program gave; the texts only when the two results differ."""

    seed: int
    same_node: bool
    sizes: tuple[int, int, int]  # the program, the default result, the reversed result
    texts: tuple[str, str, str] | None


def run_seed(seed: int, reverse: PatternMatcher, inputs) -> tuple[Outcome, int]:
    """One program both ways: its outcome, and how many of its two results are wrong."""
    program, _ = gen_index_program(random.Random(seed), RANGES)
    forward, backward = graph_rewrite(program, default), graph_rewrite(program, reverse)
    expected = [evaluate(program, env) for env in inputs]
    wrong = 0
    for name, result in (("default", forward), ("reversed", backward)):
        if not correct(result, inputs, expected):
            wrong += 1
            print(f"seed {seed}: the {name} order changed a value", file=sys.stderr)
    sizes = (size(program), size(forward), size(backward))
    same_node = forward is backward
    texts = None if same_node else tuple(infix(u, NAMES) for u in (program, forward, backward))
    return Outcome(seed, same_node, sizes, texts), wrong


def run_experiment(inputs) -> tuple[list[Outcome], int]:
    """Every seed in turn. No graph outlives its seed: the canonical order compares node ids,
    so nodes kept from earlier programs could change a later result; this way each seed gives
    what it gives alone in a fresh process."""
    reverse = PatternMatcher(list(reversed(default.rules)))
    outcomes, wrong = [], 0
    for seed in range(PROGRAMS):
        outcome, wrong_here = run_seed(seed, reverse, inputs)
        outcomes.append(outcome)
        wrong += wrong_here
    return outcomes, wrong


def which(default: int, reversed_: int, fewer: bool) -> str:
    """'the default list', 'the reversed list' or 'neither list': the one whose count is the
    lower (fewer=True) or the higher (fewer=False), for a sentence that reads right either way."""
    if default == reversed_:
        return "neither list"
    default_wins = (default < reversed_) if fewer else (default > reversed_)
    return "the default list" if default_wins else "the reversed list"


# ---- the smallest examples ------------------------------------------------------------------
# What a shrunk example must keep, as a test of its two results (default, reversed).
KEEPS = {
    "differ": lambda forward, backward: forward is not backward,
    "default smaller": lambda forward, backward: size(forward) < size(backward),
    "reversed smaller": lambda forward, backward: size(backward) < size(forward),
}


def keeps(kind: str, reverse: PatternMatcher):
    """The test shrink keeps true: the program's two results still differ the way kind says."""

    def check(program) -> bool:
        return KEEPS[kind](graph_rewrite(program, default), graph_rewrite(program, reverse))

    return check


def smallest(outcomes, kind: str, reverse: PatternMatcher) -> tuple[int, int, str]:
    """The smallest program that shrinking finds from any differing seed, keeping kind: its
    seed, the seed's program size, and its text. Only the text is kept, so that no node of it
    stays alive: `show` takes it back in fresh, as a reader's `loads` would."""
    check, best = keeps(kind, reverse), None
    for outcome in outcomes:
        program, _ = gen_index_program(random.Random(outcome.seed), RANGES)
        if outcome.same_node or not check(program):
            continue
        small = shrink(program, check)
        if best is None or measure(small) < best[0]:
            best = (measure(small), outcome.seed, outcome.sizes[0], dumps(small))
    if best is None:  # main's claims make sure every kind has a seed; this names the failure
        raise SystemExit(f"no program of the experiment keeps '{kind}'")
    return best[1:]


def fresh(rules) -> PatternMatcher:
    """A matcher of its own, so that its `fired` counter holds one rewrite's firings only."""
    return PatternMatcher(list(rules))


def show(found, kind: str, reverse: PatternMatcher, inputs, fired=False) -> tuple[int, int, int]:
    """Print a shrunk program whole (text format, then one line) and both results (with the
    rules that fired in one order only, if fired); claim that it still keeps kind after
    `loads`, that both results are correct, and that no program one replacement smaller keeps
    kind (shrinking stopped here). Returns the three sizes."""
    seed, seed_size, text = found
    gc.collect()  # the shrink's candidates are gone: the loaded nodes are new, in text order
    program = loads(text)
    ahead, behind = fresh(default.rules), fresh(reverse.rules)
    forward, backward = graph_rewrite(program, ahead), graph_rewrite(program, behind)
    print(f"  (shrunk from the program of seed {seed}, {seed_size} nodes, to {size(program)})")
    print(text.rstrip("\n"))
    print(f"  as one line: {infix(program, NAMES)}")
    for name, result in (("default: ", forward), ("reversed:", backward)):
        print(f"  {name} {infix(result, NAMES)}  ({nodes(size(result))})")
    if fired:  # the rules that fired in one order only: where the two walks part
        ran = {"default": set(+ahead.fired), "reversed": set(+behind.fired)}
        for name, other in (("default", "reversed"), ("reversed", "default")):
            only = ", ".join(sorted(ran[name] - ran[other])) or "none"
            print(f"  fired only in the {name} order: {only}")
    expected = [evaluate(program, env) for env in inputs]
    claim(KEEPS[kind](forward, backward), f"the shrunk program keeps '{kind}' after loads")
    claim(all(correct(u, inputs, expected) for u in (forward, backward)), f"{kind}: correct")
    check = keeps(kind, reverse)
    claim(not any(check(c) for c in candidates(program)), f"{kind}: shrinking stopped here")
    return size(program), size(forward), size(backward)


def show_smallest(outcomes, reverse: PatternMatcher, inputs) -> None:
    """Blocks smallest and each-way: the three shrunk programs, with their sizes as numbers."""
    block("smallest")
    print("the smallest program that shrinking finds on which the two results differ")
    found = smallest(outcomes, "differ", reverse)
    sizes = show(found, "differ", reverse, inputs)
    state("order_smallest_seed", found[0], "the seed the smallest differing program came from")
    state("order_smallest_seed_nodes", found[1], "nodes of that seed's program before shrinking")
    state("order_smallest_nodes", sizes[0], "nodes of the smallest program whose results differ")
    state("order_smallest_default", sizes[1], "its nodes after, default order")
    state("order_smallest_reversed", sizes[2], "its nodes after, reversed order")
    block("each-way")
    for kind, key in (("default smaller", "default_wins"), ("reversed smaller", "reversed_wins")):
        winner = kind.replace(" ", " order is ")  # "default order is smaller"
        print(f"the smallest program that shrinking finds on which the {winner}")
        sizes = show(smallest(outcomes, kind, reverse), kind, reverse, inputs, fired=True)
        state(f"order_{key}_nodes", sizes[0], f"nodes of the smallest program: {kind}")
        state(f"order_{key}_default", sizes[1], f"its nodes after, default order ({kind})")
        state(f"order_{key}_reversed", sizes[2], f"its nodes after, reversed order ({kind})")


def main() -> int:
    inputs = sample_inputs()
    outcomes, wrong = run_experiment(inputs)
    block("order")
    print(f"the rule order: {PROGRAMS} index programs (seeds 0-{PROGRAMS - 1}), each simplified")
    print("with the default order of the rules and with the same rules reversed")
    verdict = "yes" if wrong == 0 else f"no, {wrong} results are wrong"
    corners = len(inputs) - SEEDED_POINTS
    print(f"inputs: {len(inputs)} ({corners} corners of the ranges, {SEEDED_POINTS} seeded points)")
    print(f"both results correct on every input, for every program: {verdict}")
    claim(wrong == 0, "every result is correct")
    differ = [outcome for outcome in outcomes if not outcome.same_node]
    print(f"same node: {len(outcomes) - len(differ)}, different: {len(differ)}")
    claim(len(differ) > 0, "some pairs differ")
    smaller = sum(o.sizes[1] < o.sizes[2] for o in differ)
    larger = sum(o.sizes[1] > o.sizes[2] for o in differ)
    same_size = len(differ) - smaller - larger
    print(f"of those, the smaller graph comes from the default order {smaller} times,")
    print(f"from the reversed order {larger} times; same size {same_size} times")
    total_forward = sum(o.sizes[1] for o in outcomes)
    total_backward = sum(o.sizes[2] for o in outcomes)
    print(f"total nodes: default {total_forward:,}, reversed {total_backward:,}")
    claim(10 * len(differ) <= PROGRAMS, "at most a tenth of the pairs differ")
    claim(smaller > 0 and larger > 0, "each order gives the smaller graph at least once")
    state("order_programs", PROGRAMS, "index programs simplified in both orders")
    state("order_inputs", len(inputs), "inputs each result is checked on")
    state("order_same", len(outcomes) - len(differ), "programs whose two results are one node")
    state("order_different", len(differ), "programs whose two results differ")
    state("order_default_smaller", smaller, "of those, the default order's is smaller")
    state("order_reversed_smaller", larger, "of those, the reversed order's is smaller")
    state("order_same_size", same_size, "of those, both have the same size")
    state("order_total_default", total_forward, "nodes after, summed, default order")
    state("order_total_reversed", total_backward, "nodes after, summed, reversed order")
    state("order_fewer_nodes", which(total_forward, total_backward, fewer=True),
          "the order whose results hold fewer nodes in all (words for chapter 8)")  # fmt: skip
    state("order_more_often", which(smaller, larger, fewer=False),
          "the order that gave the smaller graph more often (words for chapter 8)")  # fmt: skip
    state("order_nodes_apart", abs(total_forward - total_backward),
          "how many nodes the two orders' totals differ by")  # fmt: skip
    show_smallest(outcomes, PatternMatcher(list(reversed(default.rules))), inputs)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
