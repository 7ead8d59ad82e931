"""Benchmark block `compile`: clang's time against the size of the function.

A chain of float adds and multiplies of growing length is compiled by `compile_c` at -O0, -O1
and -O2 with the runtime's other flags, each time in a fresh, empty cache. An empty source is
compiled the same way first: that is clang's start-up (and the linker's), paid by every
compile. The second table subtracts it, so that the cost of the statements themselves shows.
cpu time here is clang's (a child process) plus this process's.
"""

import statistics
import tempfile

from bench_clock import Clock, checked

from book.protocol import MACHINE_MARK as MACHINE
from uopc import F32, CallArg, Ops, ParamArg, UOp, runtime
from uopc.render import render

LEVELS = ("-O0", "-O1", "-O2")


def statement_chain(n: int) -> str:
    """The C of a function that is a chain of n float adds and multiplies on one param."""
    node = UOp(Ops.PARAM, arg=ParamArg(0, F32))
    for i in range(n):
        node = node + 1.5 if i % 2 == 0 else node * 0.75
    source = render(UOp(Ops.CALL, (node, UOp.const(0.0)), CallArg(f"chain{n}")))
    statements = sum(line.startswith("  float v") for line in source.splitlines())
    if statements != n:
        raise SystemExit(f"FAILED: the chain of {n} rendered to {statements} statements")
    return source


def compile_once(source: str, flags: list[str]) -> tuple[float, float]:
    """Wall and cpu seconds of one compile_c in an empty cache of its own."""
    saved = runtime.CACHE_DIR
    try:
        with tempfile.TemporaryDirectory() as cache:
            runtime.CACHE_DIR = cache  # read by compile_c at call time
            with Clock() as clock:
                runtime.compile_c(source, flags=flags)
            return clock.wall, clock.cpu
    finally:
        runtime.CACHE_DIR = saved


def median_compile(name: str, source: str, level: str, runs: int) -> tuple[float, float]:
    others = [flag for flag in runtime.CFLAGS if not flag.startswith("-O")]
    flags = [level, *others]
    times = [checked(name, lambda: compile_once(source, flags)) for _ in range(runs)]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def bench_compile(sizes: dict) -> tuple[dict, dict, list[str]]:
    """(wall times as before, cpu times with the empty file's, lines)."""
    runtime.compiler_version(runtime.CC)  # asked once per process: not part of any timing
    runs = sizes["compile_runs"]
    empty = {level: median_compile(f"clang {level}, empty", "", level, runs) for level in LEVELS}
    wall, cpu = {level: [] for level in LEVELS}, {level: [] for level in LEVELS}
    for n in sizes["statements"]:
        source = statement_chain(n)
        for level in LEVELS:
            w, c = median_compile(f"clang {level}, {n:,} statements", source, level, runs)
            wall[level].append(w)
            cpu[level].append(c)
    data = {"statements": list(sizes["statements"])}
    data.update({level.lstrip("-"): wall[level] for level in LEVELS})
    cpu_data = {
        "statements": list(sizes["statements"]),
        "empty": {level.lstrip("-"): empty[level][1] for level in LEVELS},
        "empty_wall": {level.lstrip("-"): empty[level][0] for level in LEVELS},
        **{level.lstrip("-"): cpu[level] for level in LEVELS},
    }
    return data, cpu_data, compile_lines(sizes, wall, cpu, empty)


def compile_lines(sizes, wall, cpu, empty) -> list[str]:
    head = f"  {'statements':>10}" + "".join(f"{level:>14}" for level in LEVELS)
    lines = [
        f"clang's time against the size of the function  {MACHINE}",
        f"  seconds, wall / cpu, median of {sizes['compile_runs']} runs; each builds",
        "  a shared library with the runtime's flags in an empty cache",
        head,
    ]

    def row(label, values):
        return f"  {label:>10}" + "".join(f"{w:>8.3f}/{c:.3f}" for w, c in values)

    lines.append(row("empty", [empty[level] for level in LEVELS]))
    for position, n in enumerate(sizes["statements"]):
        lines.append(row(f"{n:,}", [(wall[lv][position], cpu[lv][position]) for lv in LEVELS]))
    lines += ["  cpu seconds above the empty file's (clang's start-up taken out)", head]
    for position, n in enumerate(sizes["statements"]):
        net = [cpu[level][position] - empty[level][1] for level in LEVELS]
        lines.append(f"  {n:>10,}" + "".join(f"{value:>14.3f}" for value in net))
    return lines
