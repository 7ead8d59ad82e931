"""How the compiler's cost grows with the graph: time per phase and memory per node.

Part 1 builds chains `x + 1 + 2 + ... + n` on an i32 param for n = 20,000 and 200,000 and times
four phases on each: building the nodes, `toposort`, `evaluate` at x = 0, and `simplify`. Every
walk is linear, so each phase should take about ten times longer on the chain ten times longer;
the ratio is printed, never asserted (a benchmark reports, it does not pass or fail).

Part 2 measures memory: 300 random index expressions built while `tracemalloc` traces, divided
by the number of distinct nodes among them (hash consing shares the rest).

Every figure printed here depends on the machine and the moment.
Usage: python scripts/scaling.py
"""

import gc
import random
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from common import gen_index_program  # noqa: E402

from uopc import I32, Ops, ParamArg, UOp  # noqa: E402
from uopc.interp import evaluate  # noqa: E402
from uopc.symbolic import simplify  # noqa: E402

SIZES = (20_000, 200_000)
PHASES = ("build", "toposort", "evaluate", "simplify")
REPEATS = 5  # each phase reports its fastest run, the one least disturbed by the machine


def timed(function):
    """(result, seconds) of one call, with the cyclic garbage collector paused, as timeit does.

    A collection walks every live node, so with hundreds of thousands of nodes alive its pauses
    would be timed as part of whichever phase happened to trigger them.
    """
    gc.disable()
    try:
        start = time.perf_counter()
        result = function()
        return result, time.perf_counter() - start
    finally:
        gc.enable()


def build_chain(n):
    x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    node = x
    for c in range(1, n + 1):
        node = node + c
    return node


def time_chain(n):
    """Seconds per phase for the chain of n additions, and a line describing the result."""
    gc.collect()  # start clean: no node of an earlier chain may be shared with this one
    root, build = timed(lambda: build_chain(n))
    order, toposort = timed(root.toposort)
    value, evaluation = timed(lambda: evaluate(root, {0: 0}))
    result, simplification = timed(lambda: simplify(root))
    size = len(result.toposort())
    note = f"{len(order):,} nodes, value at x = 0: {value:,}, simplified to {size} nodes"
    return dict(zip(PHASES, (build, toposort, evaluation, simplification), strict=True)), note


def best_of(n, repeats):
    """The fastest time of each phase over several fresh chains: the least disturbed run."""
    runs = [time_chain(n) for _ in range(repeats)]
    return {phase: min(times[phase] for times, _ in runs) for phase in PHASES}, runs[0][1]


def report_chains():
    print(f"chains x + 1 + 2 + ... + n  (this machine; seconds, best of {REPEATS} runs, gc paused)")
    times = {}
    for n in SIZES:
        times[n], note = best_of(n, REPEATS)
        print(f"  n = {n:>7,}: {note}")
    small, large = SIZES
    print(f"  {'phase':<10}{f'n = {small:,}':>14}{f'n = {large:,}':>14}{'ratio':>9}")
    for phase in PHASES:
        ratio = times[large][phase] / times[small][phase]
        print(f"  {phase:<10}{times[small][phase]:>14.3f}{times[large][phase]:>14.3f}{ratio:>9.1f}")
    print(f"  (linear growth gives a ratio near {large // small}; about 8 to 13 is the target)")


def report_memory(count=300):
    gc.collect()
    tracemalloc.start()
    roots = [gen_index_program(random.Random(seed))[0] for seed in range(count)]
    traced, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    separately = sum(len(root.toposort()) for root in roots)
    distinct = len({node for root in roots for node in root.toposort()})
    print(f"memory of {count} random index expressions  (this machine)")
    print(f"  nodes counted separately, per expression: {separately:,}")
    print(f"  distinct nodes over all of them:          {distinct:,}")
    print(f"  traced while building them:               {traced:,} bytes, {traced / 1024:,.0f} KiB")
    print(f"  bytes per distinct node:                  {traced / distinct:,.0f}")


if __name__ == "__main__":
    report_chains()
    print()
    report_memory()
