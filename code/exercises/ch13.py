"""Chapter 13 · Compiling and running: the answers to exercises 13.1-13.5.

13.1 and 13.2 use a fresh, empty cache folder; 13.4 patches a dtype's C name at run time and
restores it; 13.3 is a timing (this machine, this run).

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch13.
"""

import ctypes
import os
import re
import shutil
import tempfile
import time

from uopc import F32, I32, INT_MAX, UOp, runtime
from uopc.interp import evaluate
from uopc.render import render
from uopc.runtime import Program
from verify.generators import param

from answers import check, exercise, out, out_machine
from shared import LEVELS, c_function, call_of, relu_parts


class FreshCache:
    """Point the runtime's cache at a new, empty folder (UOPC_CACHE too), then put it back."""

    def __enter__(self):
        self.folder = tempfile.mkdtemp(prefix="uopc-cache-")
        self.saved = (runtime.CACHE_DIR, os.environ.get("UOPC_CACHE"))
        runtime.CACHE_DIR = os.environ["UOPC_CACHE"] = self.folder  # read at import: set both
        return self.folder

    def __exit__(self, *exc):
        runtime.CACHE_DIR = self.saved[0]
        if self.saved[1] is None:
            os.environ.pop("UOPC_CACHE", None)
        else:
            os.environ["UOPC_CACHE"] = self.saved[1]
        shutil.rmtree(self.folder, ignore_errors=True)


def build_and_count(call) -> tuple[bool, int, int]:
    """(was the library cached before?, compiles added, hits added) for one Program build."""
    key = runtime.cache_key(render(call), runtime.CC, runtime.CFLAGS)
    cached = os.path.exists(os.path.join(runtime.CACHE_DIR, f"{key}.so"))
    before = dict(runtime.STATS)
    Program(call)
    return (
        cached,
        runtime.STATS["compiles"] - before["compiles"],
        runtime.STATS["hits"] - before["hits"],
    )


@exercise("ch13", "13.1", "Program built twice on relu, with an empty cache")
def ex_13_1():
    call = relu_parts()[3]
    with FreshCache() as folder:
        check(os.listdir(folder) == [], "the cache folder is not empty")
        for build in (1, 2):
            cached, compiles, hits = build_and_count(call)
            predicted = (0, 1) if cached else (1, 0)
            check((compiles, hits) == predicted, f"build {build}: {(compiles, hits)}")
            check(cached == (build == 2), f"build {build}: cached {cached}")
            key = runtime.cache_key(render(call), runtime.CC, runtime.CFLAGS)
            files = [f"{key}.c", f"{key}.so", f"{key}.so.sha256"]  # the sha256 is checked on load
            check(sorted(os.listdir(folder)) == files, "the cache's files")
            out(
                f"build {build}: library cached before: {cached}; "
                f"compiles +{compiles}, hits +{hits}"
            )


@exercise("ch13", "13.2", "-O3 added to the flags")
def ex_13_2():
    call = relu_parts()[3]
    saved = runtime.CFLAGS
    with FreshCache():
        build_and_count(call)
        key = runtime.cache_key(render(call), runtime.CC, runtime.CFLAGS)
        try:
            runtime.CFLAGS = [*saved, "-O3"]
            new_key = runtime.cache_key(render(call), runtime.CC, runtime.CFLAGS)
            check(new_key != key, "the key ignores the flags")  # the key hashes every flag
            for build, predicted in ((1, (1, 0)), (2, (0, 1))):
                cached, compiles, hits = build_and_count(call)
                check((compiles, hits) == predicted, f"-O3 build {build}: {(compiles, hits)}")
                out(
                    f"with -O3, build {build}: cached before: {cached}; compiles +{compiles}, "
                    f"hits +{hits}"
                )
        finally:
            runtime.CFLAGS = saved
    out("the key hashes compiler, version, flags and source: new flags, new library")


LOOP_C = """
int32_t count_positive(int32_t n) {
  int32_t count = 0;
  for (int32_t i = 0; i < n; i++) count += relu((float)(i % 5) - 2.0f, 1.0f) > 0.0f;
  return count;
}
"""


@exercise("ch13", "13.3", "a million ctypes calls against one C loop")
def ex_13_3():
    n = 1_000_000
    x, y, body, call = relu_parts()
    program = Program(call)  # kept alive: it holds the loaded library
    function = program.fn
    start = time.perf_counter()
    for _ in range(n):
        function(2.0, 3.0)
    per_call = (time.perf_counter() - start) / n * 1e9
    loop = c_function(render(call) + LOOP_C, "count_positive", ctypes.c_int32, [ctypes.c_int32])
    start = time.perf_counter()
    count = loop(n)
    per_iteration = (time.perf_counter() - start) / n * 1e9
    per_residue = [evaluate(body, {0: float(v - 2), 1: 1.0}) > 0.0 for v in range(5)]
    check(count == sum(per_residue) * (n // 5), f"the loop counted {count}")
    check(per_iteration < per_call, "the C loop is not faster")
    out(f"the C loop ran: {count:,} of {n:,} results positive, as the interpreter predicts")
    out_machine(
        f"ctypes: {per_call:.0f} ns per call; C loop: {per_iteration:.2f} ns per "
        f"iteration; ratio {per_call / per_iteration:,.0f}"
    )


@exercise("ch13", "13.4", "a renderer that writes a bad type name")
def ex_13_4():
    call = relu_parts()[3]
    saved = F32.c
    with FreshCache() as folder:
        try:
            F32.c = "flaot"  # patched in this process only, put back below
            Program(call)
            message = None
        except RuntimeError as error:
            message = str(error)
        finally:
            F32.c = saved
        check(message is not None, "no RuntimeError")
        check(message.startswith(f"{runtime.CC} failed:\n"), "no compile-failure prefix")
        paths = re.findall(r"(/\S+?\.c)\b", message)
        check(
            paths and all(os.path.exists(p) and os.path.dirname(p) == folder for p in paths), "path"
        )
        check("unknown type name 'flaot'" in message, "clang's unknown-type message is missing")
        check(Program(call)(2.0, 3.0) == 7.0, "with the name put back, relu compiles and runs")
    out("RuntimeError with the compile-failure prefix, naming the .c file left in the cache:")
    for line in message.splitlines()[:3]:
        out_machine(line)


@exercise("ch13", "13.5", "x + 1 > x with the runtime's flags, with and without -fwrapv")
def ex_13_5():
    x = param(0, I32)
    call = call_of(x.lt(x + 1), [UOp.const(0)], "grows")
    source, contract = render(call), evaluate(x.lt(x + 1), {0: INT_MAX})
    table = {}
    for level in LEVELS:
        with_wrap = [level if flag == "-O2" else flag for flag in runtime.CFLAGS]
        without = [flag for flag in with_wrap if flag != "-fwrapv"]
        for name, flags in (("runtime", with_wrap), ("no -fwrapv", without)):
            grows = c_function(source, "grows", ctypes.c_bool, [ctypes.c_int32], flags)
            table[level, name] = grows(INT_MAX)
        check(table[level, "runtime"] == contract, f"{level}: {table[level, 'runtime']}")
    out(f"the contract: {contract}; with the runtime's flags every level gives {contract}")
    out_machine("level   runtime   no -fwrapv")
    for level in LEVELS:
        out_machine(f"{level:<7} {table[level, 'runtime']!s:<9} {table[level, 'no -fwrapv']}")
