"""pytest options for the suite: `--full` for the book's sizes, `--layer NAME` to pick layers.

The unit and differential layers (BOTH_MODES) run twice at quick sizes: with the speed overlay
installed, as everything else runs, and with the plain code alone (`uopc.speed.uninstall()`),
so that each plain function is held to the same tests as its twin (a test marked child_process,
whose uopc runs in a child process with the overlay either way, runs once). At the book's sizes
(`--full`) they run with the overlay only: the book's figures are that run's, and in plain mode
they would only be counted twice."""

import os
import shutil
import sys
from pathlib import Path

import early_runs  # tests/, beside this file
import pytest

from book import own_tree, used

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", help="run every layer at the book's sizes")
    parser.addoption(
        "--layer",
        action="append",
        default=[],
        help="run only the tests marked with this layer name (repeatable)",
    )


def pytest_configure(config):
    # The suite tests this tree's uopc (book/own_tree.py), and so do the programs it starts:
    # they import the folder this process imports, first on their PYTHONPATH.
    said = own_tree.problem(ROOT, own_tree.uopc_folder(), os.environ.get(own_tree.TESTED_COPY, ""))
    if said:
        pytest.exit(said, returncode=2)
    first = str(own_tree.uopc_folder().parent)
    path = os.environ.get("PYTHONPATH", "")
    if path.split(os.pathsep)[0] != first:
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [first, path]))
    if config.getoption("--full"):
        os.environ["UOPC_FULL"] = "1"
    if config.getoption("dist", "no") == "load" and not given_dist(config):
        # -n 2 (the README's command) without a --dist of its own: pytest-xdist then hands out
        # one test at a time, except that the tests marked xdist_group(NAME) go to one worker
        # together: those that share a module fixture costing seconds (the z3 claims, the
        # figures drawn twice, a generator's uninterrupted run), built once, not once a worker.
        # The groups start first, then the tests marked slow (below), so no long test starts
        # last. (Set here, not in pyproject's addopts: without -n, pytest-benchmark would
        # warn in every run, the child runs of the tests included.)
        config.option.dist = "loadgroup"
    if getattr(config, "workerinput", {}).get("loadgroup"):
        config.option.loadgroup = True  # a worker: name each test by its group, as xdist does
    for marker in (
        "layer(name): the test layer a test belongs to (select with --layer NAME)",
        "needs_clang: compiles C with clang",
        "needs_z3: uses the z3 solver",
        "slow: takes more than a few seconds even at quick sizes",
        "mutation: runs planted bugs (opt-in: select with -m mutation)",
        "full_only(why): runs with --full only; why says where the quick run's check is",
        "child_process: runs uopc in a child process only: one mode, not both (BOTH_MODES)",
        "late: reads runs started as the session started (tests/early_runs.py): runs last",
    ):
        config.addinivalue_line("markers", marker)


def given_dist(config) -> bool:
    return any(arg.startswith("--dist") for arg in config.invocation_params.args)


# Where pytest keeps the test modules it has rewritten (its asserts made to explain themselves),
# so that a run reads them instead of rewriting every module in every worker (about 1.5 s of cpu
# each). The environment here asks for no bytecode (PYTHONDONTWRITEBYTECODE), and pytest then
# keeps none (its documentation names sys.dont_write_bytecode, set in a conftest.py, as the
# switch); with sys.pycache_prefix set, it keeps them there (its changelog, 6.0). Only while
# pytest collects, so the tests' own imports (of temporary files too) write nothing; in build/,
# which is not committed. Each file is checked against its source's time and size, as any
# bytecode is. Left as the environment says in three runs: one the build records
# (book/used.py), whose record notes the sources a run opens, and a module read from this cache
# opens none; one that tests a copy of uopc (own_tree.TESTED_COPY: the planted bugs, whose
# copies' bytecode would outlive them here); and one that writes bytecode already (the planted
# bugs' cache, verify/mutants.py: bytecode_cache).
REWRITTEN = ROOT / "build" / "pytest-pycache"


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    as_set = os.environ.get(used.RECORD_ENV) or os.environ.get(own_tree.TESTED_COPY)
    if as_set or not sys.dont_write_bytecode:
        return (yield)
    before = sys.dont_write_bytecode, sys.pycache_prefix
    sys.dont_write_bytecode, sys.pycache_prefix = False, str(REWRITTEN)
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode, sys.pycache_prefix = before


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist, before it starts a worker: tell the worker that the run is by groups (a
    worker reads --dist from the command line only, which may not hold it)."""
    node.workerinput["loadgroup"] = node.config.option.dist == "loadgroup"
    node.workerinput["browser_runs"] = str(early_runs.folder_for(node.config))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """pytest-xdist's controller, as a worker has collected and before any test is handed out:
    the browser runs start if a test reads them (tests/early_runs.py)."""
    if early_runs.wanted(node.config, ids):
        early_runs.start(early_runs.folder_for(node.config))


def pytest_collection_finish(session):
    """pytest without -n, once it has collected: the same (a worker of -n leaves it to the
    controller)."""
    config = session.config
    alone = getattr(config.option, "dist", "no") == "no" and not hasattr(config, "workerinput")
    if alone and early_runs.wanted(config, (item.nodeid for item in session.items)):
        early_runs.start(early_runs.folder_for(config))


def pytest_unconfigure(config):
    early_runs.stop_all(config)


def pytest_ignore_collect(collection_path, config):
    """tests/browser/ checks a built site: collected only when named on the command line
    (`python -m pytest tests/browser --site site`, as .ci/run does), never by the quick suite,
    which has no site and would only list its tests as skipped."""
    if collection_path == ROOT / "tests" / "browser":
        named = [Path(arg.split("::")[0]).resolve() for arg in config.args]
        return not any(collection_path in (path, *path.parents) for path in named)
    return None


def pytest_collection_modifyitems(config, items):
    wanted = set(config.getoption("--layer"))
    if wanted:
        chosen = [item for item in items if _layer(item) in wanted]
        deselected = [item for item in items if _layer(item) not in wanted]
        config.hook.pytest_deselected(items=deselected)
        items[:] = chosen
    if not config.getoption("-m"):
        # planted-bug runs are slow and opt-in
        kept = [item for item in items if "mutation" not in item.keywords]
        config.hook.pytest_deselected(items=[i for i in items if "mutation" in i.keywords])
        items[:] = kept
    for item in items:
        only_full = item.get_closest_marker("full_only")
        if only_full and os.environ.get("UOPC_FULL") != "1":
            item.add_marker(pytest.mark.skip(reason=f"--full only: {only_full.args[0]}"))
        # Without clang a quick run skips (and says so); a full run lets the test fail.
        missing_clang = shutil.which("clang") is None
        if "needs_clang" in item.keywords and missing_clang and os.environ.get("UOPC_FULL") != "1":
            item.add_marker(pytest.mark.skip(reason="clang is not installed (scripts/setup.sh)"))
    if hasattr(config, "workerinput"):
        # A pytest-xdist worker (-n 2): the tests marked slow first, so that the last ones to
        # start are short and both workers finish together. The order is the same on every
        # worker, as xdist requires; a run without -n keeps the files' order.
        items.sort(key=lambda item: "slow" not in item.keywords)
    # the tests that wait for the runs started as the session started come last, either way
    items.sort(key=lambda item: "late" in item.keywords)


# the test files whose tests run in both modes at quick sizes (see the docstring)
BOTH_MODES = {
    "test_uop.py", "test_rewrite.py", "test_fold.py", "test_symbolic.py", "test_rules_unit.py",
    "test_further.py", "test_interp.py", "test_pipeline.py",
}  # fmt: skip


def pytest_generate_tests(metafunc):
    quick = not metafunc.config.getoption("--full")
    # a test whose code runs in a child process: the child installs the overlay whatever this
    # process's mode, so a plain twin would only run it again
    in_child = metafunc.definition.get_closest_marker("child_process")
    if quick and Path(metafunc.definition.fspath).name in BOTH_MODES and not in_child:
        metafunc.parametrize("speed_mode", ["overlay", "plain"], indirect=True)


@pytest.fixture(autouse=True)
def speed_mode(request, monkeypatch):
    """'overlay' (the default) or 'plain': the plain code alone, for this test only. A plain
    run records no count or number, so the counts the book states are the overlay run's."""
    from uopc import speed  # here, not at the top: the check above comes first

    mode = getattr(request, "param", "overlay")
    if mode == "plain":
        monkeypatch.delenv("UOPC_COUNTS", raising=False)
        speed.uninstall()
    try:
        yield mode
    finally:
        speed.install()


def _layer(item):
    marker = item.get_closest_marker("layer")
    return marker.args[0] if marker else None
