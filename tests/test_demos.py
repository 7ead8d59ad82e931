"""The demo programs in demos/: each runs from the repository root, exits 0, prints its quoted
blocks under unique names in the expected order, and prints the same bytes on a second run (the
build's saved run in out/demos/ when it is the same, a run of this test's own otherwise).

A demo exits non-zero when one of its printed claims is false (programs.md, "Failed claims"), so
a planted bug that changes what a demo shows fails here too. The book build cuts each output at
its `@@ block NAME` lines; a block whose first line ends in `(this machine)` depends on the
machine as a whole, any other line with that mark on its own, and both are left out of the
comparison between runs.
"""

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

from book import protocol
from book.protocol import MACHINE_MARK as MACHINE

ROOT = Path(__file__).resolve().parents[1]
MARKER = "@@ block "
BLOCK_NAME = re.compile(r"[a-z][-_0-9a-z]*")

# demo -> the blocks it must print, in order
BLOCKS = {
    "run_demos": [f"demo{n}" for n in range(1, 9)],
    "walkthrough": [
        "relu-text", "relu-c", "ranges", "trace", "bump", "memory-trap", "stencil",
        "interpreter-errors",
    ],
    "ranges_table": ["ranges-table-arith", "ranges-table-div", "split-trace"],
    "number_facts": [
        "wrap", "bits", "rounding", "specials", "division", "casts", "casts-hardware",
    ],
    "contract_edges": ["edges", "exp2-log2"],
    "errors": ["bad-graphs", "bad-texts", "bad-memory", "chain-times", "chain"],
    "matcher": ["patterns", "rule-counts", "compiled-neg"],
    "upat_fields": ["upat-fields"],
    "fold": ["fold-relu", "partial-evaluation"],
    "order": ["order", "smallest", "each-way"],
    "egraph": ["egraph"],
    "fast_math": ["first", "shrunk"],
    "runtime_steps": ["steps", "cache", "failures"],
}  # fmt: skip
MARKS = {
    "run_demos": [pytest.mark.needs_clang],
    "walkthrough": [pytest.mark.needs_clang],
    "runtime_steps": [pytest.mark.needs_clang],
    # a chain of 400,001 nodes: about 20 s; .ci/run's check_stale.py runs it and compares
    "errors": [pytest.mark.slow, pytest.mark.full_only("check_stale.py reruns demos/errors")],
}
SECOND_RUN_ONLY_WHEN_FULL = {"errors"}  # its deterministic lines are few; its run is long
# xdist_group: under -n 2 a demo's two tests go to one worker, which runs the demo twice, not
# three times (first_run below is remembered per process)
DEMOS = [
    pytest.param(stem, marks=[*MARKS.get(stem, []), pytest.mark.xdist_group(f"demo-{stem}")])
    for stem in BLOCKS
]


def run_demo(stem: str) -> subprocess.CompletedProcess:
    """One fresh run, from the repository root, with this process's environment (PYTHONPATH
    included, so that a planted-bug run reaches the demo too)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "demos" / f"{stem}.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


@functools.cache
def first_run(stem: str) -> subprocess.CompletedProcess:
    return run_demo(stem)


def blocks(stdout: str) -> list[tuple[str, list[str]]]:
    """(name, lines) for every block; lines before the first marker belong to no block."""
    found: list[tuple[str, list[str]]] = [("", [])]  # "" collects what comes before
    for line in stdout.splitlines():
        if line.startswith(MARKER):
            found.append((line[len(MARKER) :], []))
        else:
            found[-1][1].append(line)
    return found if found[0][1] else found[1:]  # "" then shows up among the names


def stable_part(stdout: str) -> list[tuple[str, list[str]]]:
    """The output without what depends on the machine: marked blocks and marked lines."""
    kept = []
    for name, lines in blocks(stdout):
        if lines and lines[0].endswith(MACHINE):
            continue
        kept.append((name, [line for line in lines if not line.endswith(MACHINE)]))
    return kept


@pytest.mark.parametrize("stem", DEMOS)
def test_demo_runs_and_names_its_blocks(stem):
    done = first_run(stem)
    assert done.returncode == 0, f"demos/{stem}.py exited {done.returncode}:\n{done.stderr}"
    names = [name for name, _ in blocks(done.stdout)]
    assert names == BLOCKS[stem], f"demos/{stem}.py printed the blocks {names}"
    assert len(set(names)) == len(names), f"a block name repeats: {names}"
    for name, lines in blocks(done.stdout):
        assert BLOCK_NAME.fullmatch(name), f"bad block name {name!r}"
        assert any(line.strip() for line in lines), f"block {name} is empty"


def saved_run(stem: str) -> str | None:
    """The output the build saved of the demo (out/demos/), with its block markers put back;
    None when it is missing or its blocks are not those this test expects (stale)."""
    whole = ROOT / "out" / "demos" / f"{stem}.txt"
    if not whole.is_file():
        return None
    text = whole.read_text(encoding="utf-8")
    if protocol.read_header(whole):
        text = text.split("\n", 1)[1]
    folder = whole.with_suffix("")
    if sorted(path.stem for path in folder.glob("*.txt")) != sorted(BLOCKS[stem]):
        return None
    saved = [(name, (folder / f"{name}.txt").read_text(encoding="utf-8")) for name in BLOCKS[stem]]
    # a block runs to the next marker: the blocks, in order, are the end of the whole output
    tail = "".join(block for _, block in saved)
    if not text.endswith(tail):
        return None
    return text[: len(text) - len(tail)] + "".join(f"{MARKER}{n}\n{b}" for n, b in saved)


@pytest.mark.parametrize("stem", DEMOS)
def test_demo_output_is_the_same_on_a_second_run(stem):
    """The output saved by the build's run counts as the second run when it is the same: that
    run was another process, so a hash or an address that changes the output shows up there
    too. Otherwise (the code changed since the outputs were made) the demo runs again."""
    if stem in SECOND_RUN_ONLY_WHEN_FULL and not protocol.full():
        pytest.skip(f"a second run of demos/{stem}.py is made with --full only")
    first = first_run(stem)
    assert first.returncode == 0, first.stderr
    saved = saved_run(stem)
    if saved is not None and stable_part(saved) == stable_part(first.stdout):
        return
    second = run_demo(stem)
    assert second.returncode == 0, second.stderr
    assert stable_part(second.stdout) == stable_part(first.stdout)


# ---------------------------------------------------------------------------------------------
# The shared preamble, demos/_common.py
# ---------------------------------------------------------------------------------------------

SHARED = ("block", "claim", "finish", "param")


@pytest.mark.parametrize("stem", BLOCKS)
def test_demo_takes_its_preamble_from_common(stem):
    """One home for the path set-up and the helpers: a demo that grows its own copy again
    would drift from the others."""
    text = (ROOT / "demos" / f"{stem}.py").read_text(encoding="utf-8")
    assert re.search(r"^from _common import .*\bfinish\b", text, re.MULTILINE), stem
    for name in SHARED:
        assert not re.search(rf"^def {name}\(", text, re.MULTILINE), f"{stem} defines {name}"
    assert "sys.path.append" not in text and "sys.path.insert" not in text, stem


def test_finish_fails_on_a_false_claim_after_printing_everything():
    program = (
        "import sys\n"
        "from _common import block, claim, finish\n"
        "block('one')\n"
        "claim(1 + 1 == 2, 'arithmetic')\n"
        "claim(False, 'a planted false claim')\n"
        "print('the last line')\n"
        "sys.exit(finish())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT / "demos",  # `python -c` finds _common in the folder it runs from
    )
    assert done.returncode == 1
    assert done.stdout == "@@ block one\nthe last line\n"
    assert done.stderr == "failed claims: a planted false claim\n"
