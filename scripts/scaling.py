"""How the compiler's cost grows with the graph: cost per node of each phase, and memory per node.

Part 1 builds chains `x + 1 + 2 + ... + n` on an i32 param for n = 100,000 and 500,000
(graphs of 200,001 and 1,000,001 nodes, five times apart) and times four phases on each:
building the nodes, `toposort` (the sort), `evaluate` at x = 0, and `simplify`. Every phase
should be linear: the time ratio of the two sizes about 5, the cost per node about the same
(a per-node ratio about 1). The collector is left running here, as a user's program would: a
phase that is linear only with it paused is not linear. The ratios are printed, never
asserted (a benchmark reports).

Part 2 measures memory: 300 random index expressions built while `tracemalloc` traces, divided
by the number of distinct nodes among them (hash consing shares the rest).

Every figure printed here depends on the machine and the moment; cpu is process time.
Usage: python scripts/scaling.py [--sizes SMALL LARGE] [--repeats N]
"""

import argparse
import gc
import random
import time
import tracemalloc
from pathlib import Path

from book.protocol import MACHINE_MARK
from uopc import I32, Ops, ParamArg, UOp
from uopc.interp import evaluate
from verify.generators import gen_index_program

ROOT = Path(__file__).resolve().parents[1]
from uopc.symbolic import simplify  # noqa: E402

SIZES = (100_000, 500_000)  # additions: 2n + 1 nodes
PHASES = ("build", "sort", "evaluate", "simplify")
REPEATS = 3  # each phase reports its fastest run, the one least disturbed by the machine


def timed(function):
    """(result, wall seconds, cpu seconds) of one call; the collector runs as usual."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def build_chain(n):
    x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    node = x
    for c in range(1, n + 1):
        node = node + c
    return node


def time_chain(n):
    """(wall, cpu) seconds per phase for the chain of n additions, and a line on the result."""
    gc.collect()  # start clean: no node of an earlier chain may be shared with this one
    root, *build = timed(lambda: build_chain(n))
    order, *sort = timed(root.toposort)
    value, *evaluation = timed(lambda: evaluate(root, {0: 0}))
    result, *simplification = timed(lambda: simplify(root))
    size = len(result.toposort())
    note = f"{len(order):,} nodes, value at x = 0: {value:,}, simplified to {size} nodes"
    times = (build, sort, evaluation, simplification)
    return dict(zip(PHASES, times, strict=True)), note, len(order)


def best_of(n, repeats):
    """The fastest wall and the fastest cpu time of each phase over several fresh chains."""
    runs = [time_chain(n) for _ in range(repeats)]
    best = {phase: tuple(min(run[0][phase][k] for run in runs) for k in (0, 1)) for phase in PHASES}
    return best, runs[0][1], runs[0][2]


def report_chains(sizes, repeats):
    small, large = sizes
    print(f"chains x + 1 + 2 + ... + n, best of {repeats} runs  {MACHINE_MARK}")
    times, nodes = {}, {}
    for n in sizes:
        times[n], note, nodes[n] = best_of(n, repeats)
        print(f"  n = {n:>9,}: {note}")
    print("  cost per node in microseconds (wall / cpu); ratios of cpu times")
    print(f"  {'phase':<9}{f'n = {small:,}':>15}{f'n = {large:,}':>15}{'time':>7}{'/node':>7}")
    for phase in PHASES:
        cells = ""
        for n in sizes:
            wall, cpu = times[n][phase]
            cells += f"{wall / nodes[n] * 1e6:>8.2f}/{cpu / nodes[n] * 1e6:<6.2f}"
        ratio = times[large][phase][1] / times[small][phase][1]
        print(f"  {phase:<9}{cells}{ratio:>7.1f}{ratio * nodes[small] / nodes[large]:>7.2f}")
    print(f"  linear: a time ratio near {large / small:.0f}, a per-node ratio near 1")


def report_memory(count=300):
    gc.collect()
    tracemalloc.start()
    roots = [gen_index_program(random.Random(seed))[0] for seed in range(count)]
    traced, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    separately = sum(len(root.toposort()) for root in roots)
    distinct = len({node for root in roots for node in root.toposort()})
    print(f"memory of {count} random index expressions  {MACHINE_MARK}")
    print(f"  nodes counted separately, per expression: {separately:,}")
    print(f"  distinct nodes over all of them:          {distinct:,}")
    print(f"  traced while building them:               {traced:,} bytes, {traced / 1024:,.0f} KiB")
    print(f"  bytes per distinct node:                  {traced / distinct:,.0f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=SIZES, metavar=("SMALL", "LARGE"))
    parser.add_argument("--repeats", type=int, default=REPEATS)
    args = parser.parse_args()
    report_chains(sorted(args.sizes), args.repeats)
    print()
    report_memory()


if __name__ == "__main__":
    main()
