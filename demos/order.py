"""Does the answer depend on the order of the rules? 600 index programs, both ways (Chapter 8).

    python demos/order.py

Each program from `gen_index_program` (seeds 0-599) is simplified twice: with the default
matcher, and with the same rules in reverse order. Both results are checked against the program
on a fixed sample of 74 inputs (the 8 corners of the ranges of i, j and k, and 66 points drawn
with a fixed seed); then the pairs are compared. One quoted block, `order`, after a marker line
`@@ block NAME` that the book build strips. Every line is the same on every run.

Two things must hold whatever the generator draws: every result is correct, and some pairs
differ (the rules are not confluent). If either fails, the program exits with a non-zero status.
"""

from _common import block, claim, finish, state

import itertools
import random
import sys
from typing import NamedTuple

from common import gen_index_program

from uopc.interp import evaluate
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.semantics import same
from uopc.symbolic import default
from uopc.textfmt import infix

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
    if differ:
        # the first pair whose sizes differ, else the first pair that differs at all
        example = next((o for o in differ if o.sizes[1] != o.sizes[2]), differ[0])
        start, forward, backward = example.texts
        print(f"example: seed {example.seed}, {example.sizes[0]} nodes")
        print(f"  start:    {start}")
        print(f"  default:  {forward}  ({example.sizes[1]} nodes)")
        print(f"  reversed: {backward}  ({example.sizes[2]} nodes)")
        claim(example.sizes[1] != example.sizes[2], "the example's two results differ in size")
        state("order_example_seed", example.seed, "the seed of the example pair")
        state("order_example_nodes", example.sizes[0], "nodes of the example before simplify")
        state("order_example_default", example.sizes[1], "its nodes after, default order")
        state("order_example_reversed", example.sizes[2], "its nodes after, reversed order")
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
    return finish()


if __name__ == "__main__":
    sys.exit(main())
