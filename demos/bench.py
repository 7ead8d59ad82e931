"""The benchmark (Chapter 13, Appendix D), and uopc beside tinygrad measured in the same run.

Blocks, each after a marker line `@@ block NAME` that the book build strips, each made by its
own file:
  relu             bench_relu.py: relu(x*y+1) run three ways (the interpreter, one ctypes call
                   per element, a loop inside C), and that loop against a plain -O2 loop
  compile          bench_compile.py: clang's time against the size of the function, at -O0,
                   -O1 and -O2, with and without clang's start-up
  graphs           bench_graphs.py: 300 index expressions: nodes, memory, simplification;
                   sharing in p = p + p
  tinygrad         bench_tinygrad.py: the same expressions, and chains of additions, given to
                   uopc and to tinygrad: nodes, speed, memory, each ratio
  pairs            bench_tinygrad.py: the ratio of each interleaved pair (uopc's run, then
                   tinygrad's), in cpu time, with the median and the spread
  targets          bench_tinygrad.py: the targets, each judged from what was measured: the
                   medians of the pairs, the bytes, the node counts with the further rules on
  tinygrad-method  bench_tinygrad.py: how the comparison is made fair
  overlay          bench_tinygrad.py: the speed overlay (uopc/speed) weighed: the plain code
                   against tinygrad in the same pairs, and each twin left out in turn

Every simplified expression of both libraries is checked on all 512 points of the domain; a
mismatch, or any other false claim, exits non-zero. Targets that are missed are reported, not
failed: a benchmark reports. Every timed run is checked for wall and cpu time within 30% of each
other (bench_clock.py): on a busy machine the benchmark stops and names the measurement.

Every time, rate, ratio and byte count depends on the machine and the moment: those lines end
with `(this machine)`. Only the node counts are the same on every run. The data also goes to
`out/bench/bench.json` (with a hash of the sources, so that a stale benchmark shows).

Usage: python demos/bench.py [--quick] [--busy] [--json PATH]
  --quick   tiny sizes (seconds, for the test suite); writes JSON only when --json is given
  --busy    a loaded machine: report wall and cpu times that disagree instead of stopping
            (the data file then says busy, and make_numbers refuses it); with --quick, as the
            test suite runs it, each measurement is made once, not retried
Run it alone on an idle machine: other jobs distort every figure.
"""

import argparse
import gc
import hashlib
import json
import sys
import time
from pathlib import Path

import bench_clock
from bench_compile import bench_compile
from bench_graphs import (
    POINTS,
    Uopc,
    UopcFurther,
    chain_claims,
    chain_run,
    doubling,
    expressions_run,
    gen_expressions,
    graphs_block,
    interleaved,
    lock_cost,
    lowered_claims,
    measure,
    node_parts,
    plain_uopc,
    reference,
    same_as_common,
    stack_limit_runs,
    traced_build,
    try_long_chain,
    twins_weighed,
)
from bench_numbers import compile_claims, state_numbers
from bench_relu import bench_relu
from bench_tinygrad import (
    Tinygrad,
    comparison,
    method_lines,
    overlay_block,
    pairs_block,
    targets_block,
    tinygrad_block,
)
from tinygrad_demo import tinygrad_version

from book.producers import hashed_text
from book.protocol import block
from uopc import runtime

ROOT = Path(__file__).resolve().parents[1]
DEMOS = Path(__file__).resolve().parent

FULL = {
    "expressions": 300,
    "interpreter": 20_000,
    "ctypes": 200_000,
    "c_loop": 20_000_000,
    "statements": [10, 100, 1000, 5000],
    "compile_runs": 3,
    "pairs": 9,  # interleaved pairs (uopc, tinygrad) on the expressions, one untimed pair first
    # and on the chain: about 20 s a pair, most of it tinygrad's, the bulk of the benchmark's
    # time; each run lasts seconds, so the ratios spread little (5 pairs in each of the last
    # three full runs: 0.16 to 0.16, 0.15 to 0.16, 0.14 to 0.15): 3 give the same median
    "chain_pairs": 3,
    "chain": 100_000,
    "long_chain": 200_000,
    "doublings": 18,
    "twin_turns": 5,  # turns of the overlay weighed twin by twin, one untimed turn first
}
QUICK = {
    **FULL,
    "expressions": 30,
    "interpreter": 500,
    "ctypes": 5_000,
    "c_loop": 200_000,
    "statements": [10, 100],
    "compile_runs": 1,
    "pairs": 3,
    "chain_pairs": 2,
    "chain": 2_000,
    "long_chain": 4_000,
    "twin_turns": 2,
}


SOURCES = (
    "uopc/**/*.py",
    "demos/bench*.py",
    "demos/tinygrad_demo.py",
    "verify/generators.py",
    "book/protocol.py",
)


def sources() -> list[str]:
    """The files this benchmark's figures come from, sorted: the package, this program, its
    blocks and the two files they import (the generator's constants, the tinygrad lookup)."""
    return sorted({str(p.relative_to(ROOT)) for pattern in SOURCES for p in ROOT.glob(pattern)})


def sources_hash() -> str:
    """sha256 over the name and the text of each source as every output's hash reads it
    (book.producers.hashed_text: comments left out): a benchmark older than them shows."""
    digest = hashlib.sha256()
    for name in sources():
        digest.update(name.encode() + b"\0" + hashed_text(ROOT / name) + b"\0")
    return digest.hexdigest()


def measure_graphs(libs, expressions, sizes) -> tuple[dict, list[str], list[list[int]], list]:
    """Each library's counts, checks, timed simplifications and chains; the false claims."""
    wrapped = [reference(e, wrapped=True) for e in expressions]
    exact = [reference(e, wrapped=False) for e in expressions]
    data, failures = {}, []
    for lib in libs:  # uopc with its further rules on the same graphs
        further, references = (UopcFurther(), wrapped) if lib.name == "uopc" else (None, exact)
        data[lib.name], found = measure(lib, expressions, references, further)
        failures += found
    n, chain = len(expressions), sizes["chain"]
    # the plain code takes its turn in the same pairs, after tinygrad's (its ratios: overlay)
    timed = libs + [plain_uopc()] if len(libs) > 1 else libs
    # one untimed turn first: it fills both libraries' lazily built matcher tables
    started = time.perf_counter()
    speeds = interleaved(
        timed, f"simplify {n:,} expressions", lambda lib: expressions_run(lib, expressions),
        sizes["pairs"], 1,
    )  # fmt: skip
    middle = time.perf_counter()
    chains = interleaved(
        timed, f"the chain of {chain:,}", lambda lib: chain_run(lib, chain), sizes["chain_pairs"], 0
    )
    cost = {"expressions": middle - started, "chain": time.perf_counter() - middle}
    for lib in libs:
        entry = data[lib.name]
        entry.update(simplify=speeds[lib.name], chain={"n": chain, **chains[lib.name]})
        entry["nodes_per_second"] = entry["before"]["sum"] / entry["simplify"]["wall"]
        entry["nodes_per_second_cpu"] = entry["before"]["sum"] / entry["simplify"]["cpu"]
        if lib.name == "tinygrad":
            runs = stack_limit_runs(lib, chain, sizes["long_chain"])
            entry["long_chain"], entry["lowered_limit"] = runs
            entry["stack_limit"] = lib.stack_limit.value  # its default: nothing sets it here
            failures += lowered_claims(entry["lowered_limit"])
        else:
            entry["long_chain"] = try_long_chain(lib, sizes["long_chain"])
        for key in ("chain", "long_chain"):
            failures += chain_claims(lib.name, entry[key])
    data["pairs_seconds"] = cost
    if len(timed) > len(libs):
        plain = timed[-1].name
        data["plain"] = {"simplify": speeds[plain], "chain": chains[plain]}
        data["twins"] = twins_weighed(expressions, sizes["twin_turns"])
        data["lock_ns"] = lock_cost()
    return data, failures, (wrapped, exact)


def graphs_data(sizes, data, memory, doubled) -> dict:
    uopc = data["uopc"]
    return {
        "expressions": sizes["expressions"],
        "nodes": uopc["before"]["sum"],
        "distinct": uopc["before"]["distinct"],
        "traced_bytes": memory["uopc"]["traced_bytes"],
        "bytes_per_distinct_node": memory["uopc"]["bytes_per_distinct_node"],
        "node_parts": memory["uopc"]["parts"],
        "simplify_seconds": uopc["simplify"]["wall"],
        "simplify_seconds_cpu": uopc["simplify"]["cpu"],
        "nodes_per_second": uopc["nodes_per_second"],
        "nodes_per_second_cpu": uopc["nodes_per_second_cpu"],
        "nodes_after": uopc["after"]["sum"],
        "distinct_after": uopc["after"]["distinct"],
        "nodes_after_further": uopc["further"]["after"]["sum"],
        "distinct_after_further": uopc["further"]["after"]["distinct"],
        "further_points_checked": uopc["further"]["points_checked"],
        "doubling": {"count": sizes["doublings"], "nodes": doubled[0], "tree": doubled[1]},
    }


def compare(args, sizes, libs, version, data, memory, references, relu_plain) -> dict:
    """The blocks tinygrad, targets and tinygrad-method, and their data."""
    table = comparison(data, memory, sizes)
    block("tinygrad")
    print(*tinygrad_block(version, sizes, table, data), sep="\n")
    block("pairs")
    print(*pairs_block(table, sizes, data["pairs_seconds"]), sep="\n")
    block("targets")
    print(*targets_block(table, relu_plain, sizes["chain"]), sep="\n")
    wrapped, exact = references
    method = method_lines(
        last=sizes["expressions"] - 1, index=libs[1].index, points=len(POINTS),
        overflowed=sum(w != e for w, e in zip(wrapped, exact, strict=True)),
        pairs=sizes["pairs"], chain_pairs=sizes["chain_pairs"],
    )  # fmt: skip
    block("tinygrad-method")
    print(*method, sep="\n")
    overlay = overlay_block(table, data["twins"], data["lock_ns"], sizes)
    block("overlay")
    print(*overlay, sep="\n")
    return {
        "version": version,
        "expressions": sizes["expressions"],
        "domain_points": len(POINTS),
        "pairs": sizes["pairs"],
        "chain_pairs": sizes["chain_pairs"],
        "pairs_seconds": data["pairs_seconds"],
        "ratios": "uopc/tinygrad; seconds are wall (perf_counter) unless the key says cpu; "
        "a timed figure's ratio is the median of its pairs' ratios",
        "figures": table,
        "details": {name: data[name] for name in ("uopc", "tinygrad", "plain")},
        "twins": data["twins"],
        "lock_ns": data["lock_ns"],
        "memory": memory,
    }


def run(args) -> int:
    sizes = QUICK if args.quick else FULL
    bench_clock.SETTINGS["busy"] = args.busy
    bench_clock.SETTINGS["tries"] = 1 if args.quick and args.busy else bench_clock.TRIES
    json_path = args.json or (None if args.quick else ROOT / "out" / "bench" / "bench.json")
    version = tinygrad_version()
    libs = [Uopc()] + ([Tinygrad()] if version is not None else [])
    expressions = gen_expressions(sizes["expressions"])
    # memory first: nothing else built yet in either library (only tinygrad's import)
    memory = {lib.name: traced_build(lib, expressions) for lib in libs}
    memory["uopc"]["parts"] = node_parts()
    gc.collect()
    same_as_common(expressions)
    # all that lives now (the modules, tinygrad, the expressions) lives to the end: frozen, it is
    # out of the collector's sight, and the collection before every timed run (and after it,
    # checking that its nodes are gone) walks only what was built since (10 ms saved each time)
    gc.freeze()

    relu_ns, relu_cpu_ns, relu_plain, lines = bench_relu(sizes)
    block("relu")
    print(*lines, sep="\n", flush=True)
    compile_times, compile_cpu, lines = bench_compile(sizes)
    block("compile")
    print(*lines, sep="\n", flush=True)

    data, failures, references = measure_graphs(libs, expressions, sizes)
    if not args.quick:  # quick sizes are too small for a shape
        failures += compile_claims(compile_cpu, runtime.COMPILE_GROWTH)
    doubled = doubling(sizes["doublings"])
    block("graphs")
    print(*graphs_block(sizes, memory["uopc"], data["uopc"], doubled), sep="\n")
    if doubled != (sizes["doublings"] + 1, 2 ** (sizes["doublings"] + 1) - 1):
        failures.append(f"p = p + p: {doubled}")

    result = {
        "quick": args.quick,
        "sources_hash": sources_hash(),
        "sources": sources(),
        "relu_ns": relu_ns,
        "relu_cpu_ns": relu_cpu_ns,
        "relu_plain_loop": relu_plain,
        "compile_times": compile_times,
        "compile_cpu": compile_cpu,
        "graphs": graphs_data(sizes, data, memory, doubled),
    }
    if version is None:
        block("tinygrad")
        print("tinygrad is not installed: no comparison", sep="\n")
        result["tinygrad"] = {"version": None}
    else:
        result["tinygrad"] = compare(
            args, sizes, libs, version, data, memory, references, relu_plain
        )
    result["busy"] = bench_clock.DISAGREED[:]  # empty: every wall and cpu time agreed
    if failures:  # and no data file: a failed run must not replace the last good one
        print("\n".join(failures), file=sys.stderr)
        print(f"FAILED: {len(failures)} false claims (above)", file=sys.stderr)
        return 1
    if result["busy"] and not args.quick:  # only --busy records disagreements
        print(f"FAILED: wall and cpu time disagreed: {result['busy'][0]}", file=sys.stderr)
        return 1
    state_numbers(result)
    if json_path is not None:  # through a temporary name: never half a file
        path = Path(json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.part")
        temporary.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the test suite")
    parser.add_argument("--busy", action="store_true", help="report wall/cpu disagreements only")
    parser.add_argument("--json", type=Path, help="where to write the data")
    sys.exit(run(parser.parse_args()))


if __name__ == "__main__":
    main()
