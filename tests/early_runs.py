"""The browser tests' two runs on a small book (tests/test_book_checks.py), started as the session
starts and read by two tests that come last (marked `late`).

The runs take most of a minute and spend much of it waiting on their browsers; a test that
started them and then waited held a worker for all that time. Started at once instead, by the
process that hands out the tests (pytest-xdist's controller, or pytest itself without -n), they
run beside the other tests; by the time the two tests that read them come, they are done or
nearly. They run in a program of their own (test_book_checks.run_browser_tests), whose
reports land in a folder the tests are told of; the process that started them stops them if
they are still running when the session ends, and removes the folder.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the tests that read the runs: a session that holds one starts them
READERS = "tests/test_book_checks.py::test_browser_tests_"
FOLDER = pytest.StashKey[Path]()
# the program: set up and run both, and say why not if it cannot (folder/failed.txt)
PROGRAM = """\
import sys, traceback
from pathlib import Path
folder = Path(sys.argv[1])
try:
    import test_book_checks
    test_book_checks.run_browser_tests(folder)
except BaseException:
    (folder / "failed.txt").write_text(traceback.format_exc(), encoding="utf-8")
    raise
"""
started: dict[Path, subprocess.Popen] = {}  # by this process: stopped as it ends (stop_all)


def wanted(config, ids) -> bool:
    """Whether a session whose test ids are `ids` reads the runs (one that only lists its tests
    does not)."""
    return not config.option.collectonly and any(READERS in test_id for test_id in ids)


def folder_for(config) -> Path:
    """This session's folder for the runs, made on first use by the process that starts them."""
    if FOLDER not in config.stash:
        config.stash[FOLDER] = Path(tempfile.mkdtemp(prefix="uopc-browser-runs-"))
    return config.stash[FOLDER]


def start(folder: Path) -> None:
    """The runs, in a process group of their own (stop_all ends the whole group)."""
    if shutil.which("chromium") is None or (folder / "started").exists():
        return  # without chromium the tests skip, saying so
    (folder / "started").touch()
    path = [str(ROOT / "tests"), str(ROOT / "scripts"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path))}
    with open(folder / "program.log", "w") as log:
        started[folder] = subprocess.Popen(
            [sys.executable, "-c", PROGRAM, str(folder)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def folder_of_runs(config) -> Path:
    """For a reading test: the folder of the runs, started here if nobody started them."""
    named = getattr(config, "workerinput", {}).get("browser_runs")
    folder = Path(named) if named else folder_for(config)
    start(folder)  # nothing if they were started
    return folder


def wait_for(folder: Path, name: str, timeout: float = 600) -> str:
    """The report of the run NAME ("clean" or "faulty") once it has ended."""
    deadline = time.monotonic() + timeout
    report = folder / f"{name}.txt"
    while not report.exists():
        failed = folder / "failed.txt"
        if failed.exists():
            raise AssertionError(f"the browser runs could not start:\n{failed.read_text()}")
        if time.monotonic() > deadline:
            log = (folder / "program.log").read_text(errors="replace")
            raise AssertionError(f"no report of the {name} run after {timeout:.0f} s:\n{log}")
        time.sleep(0.2)
    return report.read_text(encoding="utf-8")


def stop_all(config) -> None:
    """As the session ends: runs this process started and no test waited for are stopped, and
    the folder goes."""
    for child in started.values():
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    started.clear()
    if FOLDER in config.stash:
        shutil.rmtree(config.stash[FOLDER], ignore_errors=True)
