"""The benchmark's clock: wall and cpu seconds of one measurement, and the check that they agree.

One process runs one thread, so while a measurement runs its cpu time (this process, plus the
compilers it waits for) should be close to its wall time. When wall time is much larger, other
jobs took the processor away and every figure of that run is inflated. So each measurement is
checked: wall and cpu within 30% of each other, or it is run again, a few times, and then the
benchmark stops and names it. `--busy` (for a loaded machine while developing) reports the
disagreement and goes on; the run is then marked busy in its data file.
"""

import gc
import resource
import sys
import time

AGREEMENT = 1.3  # the larger of wall and cpu may be at most 30% above the smaller
TRIES = 3
# set by bench.py: busy from --busy; tries, the runs of a measurement, is 1 for --quick --busy
# (the test suite's run, beside other jobs, whose figures nobody reads: a second run would only
# disagree again)
SETTINGS = {"busy": False, "tries": TRIES}
DISAGREED: list[str] = []  # measurements that never agreed (only with --busy)


def children_cpu() -> float:
    """cpu seconds of the child processes waited for so far (clang, in the compile block)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Clock:
    """Wall (perf_counter) and cpu (process_time, plus waited-for children) seconds of a block,
    collector paused.

    The collector is paused for both libraries, as timeit does: a collection walks every live
    object, and its pauses would otherwise land in whichever run triggered them. (uopc's
    graph_rewrite pauses it by itself; tinygrad's does not, so this favours tinygrad.) As in
    timeit, nothing is collected first: paused, the collector cannot touch the run, and each
    timed run of a graph collects its garbage when it ends (bench_graphs), while a collection
    here would walk the graph just built (a tenth of a second for the chain of 100,000).
    """

    def __enter__(self):
        gc.disable()
        self.wall, self.cpu = time.perf_counter(), time.process_time() + children_cpu()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() + children_cpu() - self.cpu
        gc.enable()


def agree(wall: float, cpu: float) -> bool:
    low, high = sorted((wall, cpu))
    return high <= AGREEMENT * low


def checked(name: str, run_once):
    """run_once() -> (wall, cpu, ...): its result once wall and cpu agree; run again when they
    do not, and after TRIES disagreeing runs stop with a message naming the measurement."""
    tries = SETTINGS["tries"]
    for _ in range(tries):
        result = run_once()
        wall, cpu = result[0], result[1]
        if agree(wall, cpu):
            return result
    message = (
        f"{name}: wall {wall:.4g} s and cpu {cpu:.4g} s differ by more than "
        f"{AGREEMENT - 1:.0%} in {tries} runs: other jobs are using the processor; run the "
        "benchmark alone"
    )
    if not SETTINGS["busy"]:
        raise SystemExit(f"FAILED: {message}")
    DISAGREED.append(message)
    print(f"bench: --busy: {message}", file=sys.stderr)
    return result


def timed(name: str, function) -> tuple[float, float]:
    """Wall and cpu seconds of one call of function(), checked to agree."""

    def once():
        with Clock() as clock:
            function()
        return clock.wall, clock.cpu

    return checked(name, once)


def best(name: str, function, repeats: int = 3) -> tuple[float, float]:
    """The fastest wall and the fastest cpu seconds of several checked runs of function()."""
    runs = [timed(name, function) for _ in range(repeats)]
    return min(wall for wall, _ in runs), min(cpu for _, cpu in runs)
