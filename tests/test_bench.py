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
BLOCKS = ["relu", "compile", "graphs", "tinygrad", "targets", "tinygrad-method"]
FIGURES = [
    "nodes_before", "distinct_before", "nodes_after", "distinct_after",
    "simplify_seconds_wall", "simplify_seconds_cpu", "nodes_per_second", "nodes_per_second_cpu",
    "bytes_traced", "bytes_per_distinct_node", "chain_seconds_wall", "chain_seconds_cpu",
    "long_chain_seconds_wall", "long_chain_seconds_cpu", "long_chain_handled",
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
    promised -= set() if with_tinygrad else {k for k in promised if k.startswith("bench_target")}
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
    assert 0 < graphs["nodes_after"] and graphs["distinct"] <= graphs["nodes"]
    assert positive_numbers([graphs["bytes_per_distinct_node"], graphs["nodes_per_second"]])
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
    sys.path.insert(0, str(ROOT / "scripts"))
    sys.path.insert(0, str(ROOT / "demos"))
    import bench
    import check_stale

    assert tuple(bench.SOURCES) == check_stale.COMPANION_SOURCES["bench/bench.json"]
    made = check_stale.companion_hash("bench/bench.json", "bench/bench", ROOT)
    assert made == bench.sources_hash()
