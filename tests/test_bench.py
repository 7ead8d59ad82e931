"""The benchmark at quick sizes: it runs to the end, prints every block, writes every key.

The figures themselves are not checked (they depend on the machine); what is checked is that
demos/bench.py still works and that its data file has every key that run_all.sh, the figures
and out/numbers.json read. bench.py checks its own claims (every simplified expression correct
on every point, the compiled relu equal to the interpreter) and exits non-zero when one fails.
"""

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_numbers import stated_in

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = ["relu", "compile", "graphs", "tinygrad", "pairs", "targets", "tinygrad-method", "overlay"]
FIGURES = [
    "nodes_before", "distinct_before", "nodes_after", "distinct_after", "nodes_after_further",
    "distinct_after_further", "simplify_seconds_wall", "simplify_seconds_cpu",
    "nodes_per_second", "nodes_per_second_cpu",
    "bytes_traced", "bytes_per_distinct_node", "chain_seconds_wall", "chain_seconds_cpu",
    "long_chain_seconds_wall", "long_chain_seconds_cpu", "plain_nodes_per_second_cpu",
    "plain_chain_seconds_cpu", "overlay_speedup", "long_chain_handled",
]  # fmt: skip


def positive_numbers(values) -> bool:
    return all(isinstance(v, int | float) and v > 0 for v in values)


@pytest.mark.slow
@pytest.mark.needs_clang
def test_quick_bench_prints_every_block_and_writes_every_key(tmp_path):
    path = tmp_path / "bench.json"
    # --busy: the suite runs beside other jobs, so wall and cpu time may disagree here
    command = [sys.executable, str(ROOT / "demos" / "bench.py"), "--quick", "--busy"]
    command += ["--json", str(path)]
    env = {k: v for k, v in os.environ.items() if k != "UOPC_COUNTS"}
    env["BOOK_NUMBERS"] = "1"  # as the build runs it: the numbers it states are printed
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    assert done.returncode == 0, f"bench.py --quick failed:\n{done.stdout[-3000:]}{done.stderr}"

    markers = re.findall(r"^@@ block (\S+)$", done.stdout, flags=re.MULTILINE)
    with_tinygrad = importlib.util.find_spec("tinygrad") is not None
    assert markers == (BLOCKS if with_tinygrad else BLOCKS[:4]), markers

    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["quick"] is True
    # the numbers it states for the book (demos/bench_numbers.py), every one of them
    numbers = stated_in(done.stdout)
    promised = set(
        re.findall(r'"(bench_[a-z0-9_]+)"', (ROOT / "demos" / "bench_numbers.py").read_text())
    )
    promised |= {
        f"bench_compile_{name}_{level}" for level in ("o0", "o2") for name in ("growth", "shape")
    }
    promised |= {
        f"bench_compile_{name}_{level}_s"
        for level in ("o0", "o2")
        for name in ("largest", "empty", "net")
    }
    if not with_tinygrad:  # what state_tinygrad states (and every target's verdict) is left out
        source = (ROOT / "demos" / "bench_numbers.py").read_text()
        body = source[source.index("def state_tinygrad") : source.index("def state_relu")]
        promised -= set(re.findall(r'"(bench_[a-z0-9_]+)"', body))
        promised -= {k for k in promised if k.startswith("bench_target")}
    assert promised <= set(numbers), promised - set(numbers)
    assert re.fullmatch(r"[0-9a-f]{64}", data["sources_hash"])
    assert set(data["relu_ns"]) == {"interpreter", "ctypes_per_element", "c_loop"}
    assert positive_numbers(data["relu_ns"].values())
    assert set(data["relu_cpu_ns"]) == set(data["relu_ns"])
    plain = data["relu_plain_loop"]
    assert positive_numbers([plain["wall"], plain["cpu"], plain["ratio_cpu"]])
    assert plain["met"] == (plain["ratio_cpu"] <= 1.5)
    assert isinstance(data["busy"], list)
    times = data["compile_times"]
    assert set(times) == {"statements", "O0", "O1", "O2"}
    for level in ("O0", "O1", "O2"):
        assert len(times[level]) == len(times["statements"]) and positive_numbers(times[level])
    cpu = data["compile_cpu"]
    assert set(cpu) == {"statements", "empty", "empty_wall", "O0", "O1", "O2"}
    assert set(cpu["empty"]) == {"O0", "O1", "O2"} and positive_numbers(cpu["empty"].values())
    graphs = data["graphs"]
    assert graphs["doubling"] == {"count": 18, "nodes": 19, "tree": 2**19 - 1}
    assert 0 < graphs["nodes_after_further"] and 0 < graphs["distinct_after_further"]
    assert graphs["further_points_checked"] == 512 * graphs["expressions"]
    assert 0 < graphs["nodes_after"] and graphs["distinct"] <= graphs["nodes"]
    assert positive_numbers([graphs["bytes_per_distinct_node"], graphs["nodes_per_second"]])
    parts = graphs["node_parts"]  # one new ADD node: the node, its srcs, id, weak ref, entry
    assert list(parts) == ["node", "src tuple", "id", "weak reference", "table entry"]
    assert positive_numbers(list(parts.values()))
    assert positive_numbers([graphs["simplify_seconds_cpu"], graphs["nodes_per_second_cpu"]])

    tinygrad = data["tinygrad"]
    if not with_tinygrad:
        assert tinygrad == {"version": None}
        return
    assert tinygrad["version"] and tinygrad["domain_points"] == 512
    assert list(tinygrad["figures"]) == FIGURES
    for name in FIGURES[:-1]:
        row = tinygrad["figures"][name]
        assert set(row) >= {"uopc", "tinygrad", "uopc_over_tinygrad"}, name
    for name in ("nodes_per_second_cpu", "chain_seconds_cpu"):  # the pairs, and their median
        row = tinygrad["figures"][name]
        count = tinygrad["pairs" if name.startswith("nodes") else "chain_pairs"]
        assert len(row["pairs"]) == count and row["uopc_over_tinygrad"] == row["median"]
        assert row["min"] <= row["median"] <= row["max"]
    for name in ("nodes_per_second_cpu", "chain_seconds_cpu", "bytes_per_distinct_node"):
        assert isinstance(tinygrad["figures"][name]["met"], bool), name
    for library in ("uopc", "tinygrad"):
        details = tinygrad["details"][library]
        assert details["failures"] == 0
        assert details["points_checked"] == 512 * tinygrad["expressions"]


# ---------------------------------------------------------------------------------------------
# the check that wall and cpu time agree (demos/bench_clock.py), with made-up clock readings
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def bench_clock(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "demos"))
    import bench_clock

    monkeypatch.setitem(bench_clock.SETTINGS, "busy", False)
    monkeypatch.setattr(bench_clock, "DISAGREED", [])
    return bench_clock


def readings(*pairs):
    """A run_once that returns the given (wall, cpu) pairs in turn, and counts its calls."""
    calls = []

    def run_once():
        calls.append(1)
        return (*pairs[len(calls) - 1], {"run": len(calls)})

    return run_once, calls


def test_agreeing_times_are_taken_at_once(bench_clock):
    run_once, calls = readings((1.0, 0.8))
    assert bench_clock.checked("m", run_once) == (1.0, 0.8, {"run": 1}) and len(calls) == 1


def test_a_disagreement_is_run_again(bench_clock):
    run_once, calls = readings((2.0, 1.0), (1.1, 1.0))
    assert bench_clock.checked("m", run_once)[2] == {"run": 2} and len(calls) == 2


def test_a_lasting_disagreement_stops_and_names_the_measurement(bench_clock):
    run_once, calls = readings((2.0, 1.0), (1.0, 1.4), (3.0, 1.0))
    with pytest.raises(SystemExit, match=r"FAILED: relu, c_loop: wall 3 s and cpu 1 s differ"):
        bench_clock.checked("relu, c_loop", run_once)
    assert len(calls) == bench_clock.TRIES


def test_busy_reports_and_goes_on(bench_clock):
    bench_clock.SETTINGS["busy"] = True
    run_once, _ = readings((2.0, 1.0), (2.0, 1.0), (2.0, 1.0))
    assert bench_clock.checked("m", run_once)[:2] == (2.0, 1.0)
    assert len(bench_clock.DISAGREED) == 1 and bench_clock.DISAGREED[0].startswith("m: wall 2 s")


def test_the_bounds_of_agreement(bench_clock):
    assert bench_clock.agree(1.3, 1.0) and bench_clock.agree(1.0, 1.3)
    assert not bench_clock.agree(1.31, 1.0) and not bench_clock.agree(1.0, 1.31)


def test_check_stale_hashes_bench_json_as_the_benchmark_does():
    """check_stale checks bench.json's own sources_hash over the same files bench.py hashes."""
    import bench
    import check_stale

    from book import producers

    assert tuple(bench.SOURCES) == check_stale.COMPANION_SOURCES["bench/bench.json"]
    made = producers.sources_hash(
        "bench/bench", ROOT, check_stale.COMPANION_SOURCES["bench/bench.json"]
    )
    assert bench.sources_hash().startswith(made)


# ---------------------------------------------------------------------------------------------
# interleaved pairs, their median and spread, and the targets judged (made-up timings)
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def bench_tinygrad(bench_clock):
    import bench_tinygrad

    return bench_tinygrad


class Named:
    def __init__(self, name):
        self.name = name


def test_the_pairs_are_interleaved_in_order_after_the_warmup(bench_tinygrad):
    import bench_graphs

    order, times = [], iter(range(1, 100))

    def run_once(lib):
        order.append(lib.name)
        t = float(next(times))
        return t, t, {"last": t}

    libs = [Named("uopc"), Named("tinygrad")]
    out = bench_graphs.interleaved(libs, "m", run_once, pairs=3, warmup=1)
    assert order == ["uopc", "tinygrad"] * 4  # uopc, tinygrad, uopc, tinygrad ...
    # the warm-up pair (1, 2) is left out; pair i is entry i of both lists
    assert out["uopc"]["cpus"] == [3.0, 5.0, 7.0] and out["tinygrad"]["cpus"] == [4.0, 6.0, 8.0]
    assert out["uopc"]["cpu"] == 5.0 and out["tinygrad"]["wall"] == 6.0  # the medians
    assert out["tinygrad"]["last"] == 8.0


def test_only_the_stack_error_under_the_lowered_limit_is_no_false_claim(bench_tinygrad):
    from bench_graphs import lowered_claims

    tried = {"n": 100, "limit": 100, "ok": False}
    error = "RuntimeError: infinite loop in graph_rewrite (stack too big)"
    assert lowered_claims({**tried, "error": error}) == []
    finished = lowered_claims({**tried, "ok": True, "error": None})
    assert finished == [
        "tinygrad, the chain of 100 at REWRITE_STACK_LIMIT=100: finished, not with 'stack too big'"
    ]
    other = lowered_claims({**tried, "error": "RecursionError: maximum recursion depth"})
    assert len(other) == 1 and "stopped with RecursionError" in other[0]


def test_a_further_result_is_checked_unless_it_is_the_very_node_checked(bench_tinygrad):
    from bench_graphs import POINTS, on_points

    class Checker:
        seeds: list = []

        def check(self, seed, root, result, expected):
            self.seeds.append(seed)
            return len(POINTS), [] if result == expected else [f"seed {seed} wrong"]

    same, other, wrong = "r0", "r1", "r2"
    entry = {}
    found = on_points(Checker(), entry, [0, 1, 2], [same, other, wrong], [same, other, "x"],
                      checked=[same, "r1 before", "r2 before"])  # fmt: skip
    assert Checker.seeds == [1, 2] and found == ["seed 2 wrong"]
    assert entry == {"points_checked": 3 * len(POINTS), "failures": 1}


def test_median_and_spread_of_the_ratios(bench_tinygrad):
    from bench_graphs import spread

    found = spread([0.3, 0.1, 0.2, 0.9, 0.25])
    assert found == {"pairs": [0.3, 0.1, 0.2, 0.9, 0.25], "median": 0.25, "min": 0.1, "max": 0.9}
    assert spread([4.0, 1.0, 2.0, 3.0])["median"] == 2.5  # an even count: between the middle two
    with pytest.raises(ValueError):
        spread([])


def test_pair_ratios_of_times_and_of_rates(bench_tinygrad):
    ratios = bench_tinygrad.pair_ratios
    assert ratios([1.0, 2.0], [4.0, 4.0], "time") == [0.25, 0.5]
    # rates: uopc 100 nodes in 1 s against tinygrad 200 nodes in 10 s, pair by pair
    assert ratios([1.0, 2.0], [10.0, 10.0], "rate", nodes=(100, 200)) == [5.0, 2.5]
    with pytest.raises(ValueError, match="no pairs"):
        ratios([1.0], [1.0, 2.0], "time")


def test_met_or_missed_on_given_numbers(bench_tinygrad):
    met, verdict = bench_tinygrad.met, bench_tinygrad.verdict
    assert met(10.0, ">=", 10) and not met(9.99, ">=", 10)
    assert met(0.15, "<=", 0.15) and not met(0.151, "<=", 0.15)
    assert met(1348 / 1348, "<=", 1) and not met(1349 / 1348, "<=", 1)
    assert verdict(None, ">=", 10) == "MISSED" and verdict(0.7, "<=", 0.7) == "met"
    with pytest.raises(ValueError):
        met(1.0, "<", 2)


def made_up_run(u_cpus, t_cpus, u_chain, t_chain):
    """The data comparison() reads, with the given cpu seconds per pair (wall = cpu)."""

    def library(cpus, chain, nodes, after, distinct):
        times = {"walls": cpus, "cpus": cpus, "wall": sorted(cpus)[len(cpus) // 2]}
        times["cpu"] = times["wall"]
        chain_times = {"walls": chain, "cpus": chain, "wall": sorted(chain)[len(chain) // 2]}
        chain_times["cpu"] = chain_times["wall"]
        return {
            "before": {"sum": nodes, "distinct": nodes // 2},
            "after": {"sum": after, "distinct": distinct},
            "simplify": times,
            "chain": chain_times,
            "nodes_per_second": nodes / times["wall"],
            "nodes_per_second_cpu": nodes / times["cpu"],
            "long_chain": {"ok": True, "wall": 1.0, "cpu": 1.0},
        }

    data = {
        "uopc": library(u_cpus, u_chain, 1000, 500, 300),
        "tinygrad": library(t_cpus, t_chain, 1000, 520, 290),
    }
    data["uopc"]["further"] = {"after": {"sum": 480, "distinct": 290}}
    memory = {
        "uopc": {"traced_bytes": 69_000, "bytes_per_distinct_node": 69.0},
        "tinygrad": {"traced_bytes": 100_000, "bytes_per_distinct_node": 100.0},
    }
    return data, memory


def test_targets_are_judged_on_the_medians_of_the_pairs(bench_tinygrad):
    # nodes per second: ratios 12, 11, 2 (one slow uopc run): median 11, met
    # chain: ratios 0.1, 0.2, 0.3: median 0.2, missed, although the best pair is 0.1
    data, memory = made_up_run(
        [1.0, 1.0, 6.0], [12.0, 11.0, 12.0], [1.0, 2.0, 3.0], [10.0, 10.0, 10.0]
    )
    table = bench_tinygrad.comparison(data, memory, {})
    speed, chain = table["nodes_per_second_cpu"], table["chain_seconds_cpu"]
    assert speed["pairs"] == [12.0, 11.0, 2.0] and speed["median"] == 11.0 and speed["met"]
    assert (speed["min"], speed["max"]) == (2.0, 12.0)
    assert chain["uopc_over_tinygrad"] == chain["median"] == 0.2 and not chain["met"]
    assert table["bytes_per_distinct_node"]["met"]  # 0.69 <= 0.8
    assert table["nodes_after_further"]["met"]  # 480 against 520
    assert table["distinct_after_further"]["met"]  # 290 against 290: no more
    relu = {"ratio_cpu": 1.6, "target": "<= 1.5", "bound": 1.5, "met": False}
    lines = bench_tinygrad.targets_block(table, relu, 100_000)
    verdicts = [line.rsplit(": ", 1)[1] for line in lines if "  target" in line]
    assert verdicts == ["met", "MISSED", "met", "met", "met", "MISSED"], lines


# ---------------------------------------------------------------------------------------------
# the runtime's size-limit message against the measured growth of clang's time (issue 28)
# ---------------------------------------------------------------------------------------------


def compile_times(o2_net_before: float, o2_net_largest: float) -> dict:
    """Made-up compile times at 1,000 and 5,000 statements, start-up 0.05 s."""
    empty = {"O0": 0.05, "O2": 0.05}
    o0 = [0.06, 0.06, 0.07, 0.11]
    o2 = [0.06, 0.06, 0.05 + o2_net_before, 0.05 + o2_net_largest]
    return {"statements": [10, 100, 1000, 5000], "empty": empty, "O0": o0, "O2": o2}


@pytest.mark.parametrize(
    "before, largest, shape",
    [
        (0.04, 0.40, "more than linearly"),
        (0.04, 0.20, "about linearly"),
        (0.04, 0.1, "less than linearly"),
    ],
)
def test_the_runtime_message_is_held_to_the_measured_growth(bench_clock, before, largest, shape):
    import bench_numbers

    from uopc import runtime

    times = compile_times(before, largest)
    assert bench_numbers.compile_shape(times, "O2") == shape
    failures = bench_numbers.compile_claims(times, runtime.COMPILE_GROWTH)
    assert (failures == []) == (shape == runtime.COMPILE_GROWTH), failures
    with pytest.raises(runtime.CompilerError, match=runtime.COMPILE_GROWTH):
        runtime.check_size("int v;\n" * (runtime.MAX_C_LINES + 1))


def test_the_runtime_message_agrees_with_the_saved_measurement(bench_clock):
    """The words of the message are the shape the book's last benchmark run measured."""
    import bench_numbers

    from uopc import runtime

    saved = json.loads((ROOT / "out" / "bench" / "bench.json").read_text(encoding="utf-8"))
    assert bench_numbers.compile_claims(saved["compile_cpu"], runtime.COMPILE_GROWTH) == []
