"""The benchmark at quick sizes: it runs to the end, prints every block, writes every key.

The figures themselves are not checked (they depend on the machine); what is checked is that
demos/bench.py still works and that its data file has every key that run_all.sh, the figures
and out/numbers.json read. bench.py checks its own claims (every simplified expression correct
on every point, the compiled relu equal to the interpreter) and exits non-zero when one fails.
"""

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_numbers import parsed

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = ["relu", "compile", "graphs", "tinygrad", "tinygrad-method"]
FIGURES = [
    "nodes_before", "distinct_before", "nodes_after", "distinct_after",
    "simplify_seconds_wall", "simplify_seconds_cpu", "nodes_per_second", "nodes_per_second_cpu",
    "bytes_traced", "bytes_per_distinct_node", "chain_seconds_wall", "chain_seconds_cpu",
    "long_chain_seconds_wall", "long_chain_handled",
]  # fmt: skip


def positive_numbers(values) -> bool:
    return all(isinstance(v, int | float) and v > 0 for v in values)


@pytest.mark.slow
@pytest.mark.needs_clang
def test_quick_bench_prints_every_block_and_writes_every_key(tmp_path):
    path = tmp_path / "bench.json"
    command = [sys.executable, str(ROOT / "demos" / "bench.py"), "--quick", "--json", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert done.returncode == 0, f"bench.py --quick failed:\n{done.stdout[-3000:]}{done.stderr}"

    markers = re.findall(r"^@@ block (\S+)$", done.stdout, flags=re.MULTILINE)
    with_tinygrad = importlib.util.find_spec("tinygrad") is not None
    assert markers == (BLOCKS if with_tinygrad else BLOCKS[:4]), markers

    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["quick"] is True
    # the same file through the numbers' parser (tests/test_numbers.py): every key it reads is
    # there; the only failure is the one that refuses quick data for the book
    (tmp_path / "bench").mkdir()
    path.rename(tmp_path / "bench" / "bench.json")
    numbers, failed = parsed("collect_bench", tmp_path)
    assert len(failed) == 1 and "quick run" in failed[0] and numbers["bench_quick"] is True
    assert re.fullmatch(r"[0-9a-f]{64}", data["sources_hash"])
    assert set(data["relu_ns"]) == {"interpreter", "ctypes_per_element", "c_loop"}
    assert positive_numbers(data["relu_ns"].values())
    times = data["compile_times"]
    assert set(times) == {"statements", "O0", "O1", "O2"}
    for level in ("O0", "O1", "O2"):
        assert len(times[level]) == len(times["statements"]) and positive_numbers(times[level])
    graphs = data["graphs"]
    assert graphs["doubling"] == {"count": 18, "nodes": 19, "tree": 2**19 - 1}
    assert 0 < graphs["nodes_after"] and graphs["distinct"] <= graphs["nodes"]
    assert positive_numbers([graphs["bytes_per_distinct_node"], graphs["nodes_per_second"]])

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
