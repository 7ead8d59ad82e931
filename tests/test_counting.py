"""A counted layer (scripts/run_tests.py sets UOPC_COUNTS) counts the same whatever the process
that runs it built before: test_pipeline.count_alone runs it in a fresh interpreter."""

import re
import subprocess
import sys
from pathlib import Path

from test_pipeline import layer_overflow, report_layer

from uopc import I32, Ops, ParamArg, UOp


def fresh_count() -> int:
    """The overflow layer's count in an interpreter that has built nothing else."""
    code = "import test_pipeline as t; print(t.layer_overflow())"
    here = Path(__file__).parent
    child = subprocess.run(
        [sys.executable, "-c", code], cwd=here, text=True, capture_output=True, check=True
    )
    return int(child.stdout.split()[-1])


def test_a_count_does_not_depend_on_what_ran_before(tmp_path, monkeypatch):
    # a node that another test keeps alive (test_symbolic.py's `big`): it has an older id than
    # the layer's own parameter of the same slot and range, so canonical order puts it first
    held = UOp(Ops.PARAM, (), ParamArg(2, I32, 0, 2**30))
    monkeypatch.delenv("UOPC_COUNTS", raising=False)
    in_this_process = layer_overflow()
    counts = tmp_path / "counts.txt"
    counts.touch()
    monkeypatch.setenv("UOPC_COUNTS", str(counts))
    report_layer("overflow", layer_overflow)
    counted = int(re.search(r"^COUNT pipeline overflow (\d+)$", counts.read_text(), re.M)[1])
    assert counted == fresh_count()
    # the held node moves the count in this process: without a fresh interpreter, it would
    # have moved the recorded one
    assert in_this_process != counted, "the held node no longer moves the count: pick another"
    del held
