"""The book's generators survive an interruption: SIGINT, SIGTERM or SIGKILL at any moment of a
run leaves every file old or whole and new, and the next run makes exactly what an uninterrupted
run makes. One generator of each kind: save_output.py (a program's output, its blocks and its
numbers), make_excerpts.py, make_figures.py and make_numbers.py.

How a moment is chosen: each generator runs under a small runner (RUNNER below, written to a
temporary folder) that numbers every write, rename and removal it makes in the watched folder,
logs them, and can pause at the Nth one: half-way through the write of a file (the first half
flushed to disk) or just before a rename or a removal. The test waits for the pause, sends the
signal (SIGINT to the process group, as Ctrl-C does; SIGTERM to the process, as `kill` does;
SIGKILL to the group), then checks the folder, runs the generator again and compares the folder
with the one an uninterrupted run made from the same start. The moments are picked from the
events of that uninterrupted run, so they do not depend on how a generator is written; a save
is also interrupted while its program is still printing.

Everything happens in temporary folders; nothing here writes to the repository's out/ or
excerpts/ (make_numbers.py reads a copy of out/).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import check_stale  # scripts/, on the path by pytest's pythonpath (pyproject.toml)
import pytest
from test_cli import hear_ctrl_c
from test_figures import SAMPLE  # the shape of the benchmark's data

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "scripts"

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir() or not hasattr(os, "killpg"),
    reason="the runner names open files through /proc and signals process groups",
)

RUNNER = '''\
"""Run a script with every write, rename and removal in WATCH_DIR logged, pausing at one."""
import builtins, faulthandler, io, os, runpy, signal, sys, time

# the test asks with SIGUSR1 where a run that did not stop is (written to its stderr)
faulthandler.register(signal.SIGUSR1, all_threads=True)

LOG, WATCH = os.environ["WATCH_LOG"], os.path.realpath(os.environ["WATCH_DIR"])
STOP_AT = int(os.environ.get("WATCH_STOP_AT", "0"))
count = 0


def note(line):
    fd = os.open(LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, (line + "\\n").encode())
    os.close(fd)


def watched(path):
    if isinstance(path, int):
        path = os.readlink(f"/proc/self/fd/{path}")
    try:
        return os.path.realpath(os.fsdecode(path)).startswith(WATCH + os.sep)
    except TypeError:
        return False


def event(kind, path):
    global count
    count += 1
    if isinstance(path, int):
        path = os.readlink(f"/proc/self/fd/{path}")
    note(f"{count} {kind} {os.path.relpath(os.path.realpath(os.fsdecode(path)), WATCH)}")
    if count == STOP_AT:
        note("paused")
        wait_for_signal()


def wait_for_signal():
    """Sleep up to 60 s, in short naps: the test's signal ends this. One long sleep could miss
    it: a signal that lands after "paused" is noted but before the sleep begins only sets a
    flag, which Python reads when the sleep is over (a minute later)."""
    for _ in range(6000):
        time.sleep(0.01)


class Slow:
    """A file open for writing whose every write happens in two halves, with an event between."""

    def __init__(self, file, path):
        self._file, self._path = file, path

    def write(self, data):
        half = len(data) // 2
        if half == 0:
            return self._file.write(data)
        written = self._file.write(data[:half])
        self._file.flush()
        event("write", self._path)
        return written + self._file.write(data[half:])

    def __enter__(self):
        self._file.__enter__()
        return self

    def __exit__(self, *details):
        return self._file.__exit__(*details)

    def __iter__(self):
        return iter(self._file)

    def __getattr__(self, name):
        return getattr(self._file, name)


real_open = io.open


def slow_open(file, mode="r", *args, **kwargs):
    opened = real_open(file, mode, *args, **kwargs)
    if any(flag in mode for flag in "wax+") and not isinstance(file, bytes) and watched(file):
        return Slow(opened, file if isinstance(file, int) else os.fspath(file))
    return opened


builtins.open = io.open = slow_open


def announced(kind, real):
    def call(path, *args, **kwargs):
        if "dir_fd" not in kwargs and "src_dir_fd" not in kwargs and watched(path):
            event(kind, path)
        return real(path, *args, **kwargs)

    return call


for name in ("replace", "rename", "unlink", "remove", "rmdir"):
    setattr(os, name, announced(name, getattr(os, name)))

script = os.path.abspath(sys.argv[1])
sys.argv = sys.argv[1:]
runpy.run_path(script, run_name="__main__")  # its folder is on PYTHONPATH (Generator)
'''

# A program that prints blocks and numbers, a line at a time, and says where it is in the log.
PROGRAM = """\
import os, sys, time

VERSION = sys.argv[1]
LINES = {
    "old": [
        "a program, old",
        "@@ block first",
        "one (old)",
        "@@ number prog_count = 1  # how many (old)",
        "@@ block gone",
        "a block the new version no longer prints",
    ],
    "new": [
        "a program, new",
        "@@ block first",
        "one (new)",
        "@@ number prog_count = 2  # how many",
        '@@ number prog_label = "a*b <c>"  # a label',
        "@@ block added",
        "a block only the new version prints",
        "and its second line",
    ],
}[VERSION]
for number, line in enumerate(LINES, 1):
    print(line, flush=True)
    fd = os.open(os.environ["WATCH_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, f"program {number}\\n".encode())
    os.close(fd)
    if os.environ.get("PROGRAM_PAUSE_AT") == str(number):  # the test's signal ends this
        for _ in range(6000):  # short naps, as the runner's wait_for_signal
            time.sleep(0.01)
"""


# ---------------------------------------------------------------------------------------------
# The harness
# ---------------------------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under folder, hidden ones too."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        found[relative] = path.read_bytes() if path.is_file() else None
    return found


def hidden(relative: str) -> bool:
    return any(part.startswith(".") for part in relative.split("/"))


class Generator:
    """One generator run under the runner, always in the watched folder `folder`."""

    def __init__(self, tmp: Path, argv: list[str], env: dict | None = None):
        self.tmp, self.argv, self.env = tmp, argv, env or {}
        self.runner = tmp / "runner.py"
        self.runner.write_text(RUNNER, encoding="utf-8")

    def command(self, folder: Path) -> list[str]:
        return [sys.executable, str(self.runner), *(a.format(folder=folder) for a in self.argv)]

    def environment(self, folder: Path, log: Path, stop_at: int, line: int = 0) -> dict:
        env = dict(os.environ, **self.env)
        env.pop("PROGRAM_PAUSE_AT", None)
        if line:  # PROGRAM waits after that line, so that the signal lands while it still runs
            env["PROGRAM_PAUSE_AT"] = str(line)
        # the script's own folder, for its siblings, as `python script.py` would put it first
        folder_of_script = os.path.dirname(os.path.abspath(self.argv[0].format(folder=folder)))
        path = [env.get("PYTHONPATH"), str(REPO), folder_of_script]
        env["PYTHONPATH"] = os.pathsep.join(filter(None, path))
        env.update(WATCH_DIR=str(folder), WATCH_LOG=str(log), WATCH_STOP_AT=str(stop_at))
        return env

    def run(self, folder: Path, log: Path) -> list[str]:
        """An uninterrupted run; the events it logged."""
        log.unlink(missing_ok=True)
        done = subprocess.run(
            self.command(folder),
            env=self.environment(folder, log, 0),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, f"{' '.join(self.argv)} failed:\n{done.stdout}{done.stderr}"
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
        return [line for line in lines if not line.startswith("program ")]

    def interrupt(self, folder: Path, log: Path, moment, sig: signal.Signals) -> int:
        """Run until moment (an event number, or a line of the log to wait for), send the
        signal, and return the exit status."""
        log.unlink(missing_ok=True)
        stop_at, wanted = (moment, "paused") if isinstance(moment, int) else (0, moment)
        line = int(wanted.split()[1]) if wanted.startswith("program ") else 0
        with open(self.tmp / "interrupted.err", "w") as errors:
            child = subprocess.Popen(
                self.command(folder),
                env=self.environment(folder, log, stop_at, line),
                stdout=subprocess.DEVNULL,
                stderr=errors,
                start_new_session=True,
                preexec_fn=hear_ctrl_c,
            )
            try:
                deadline = time.monotonic() + 60
                while True:
                    text = log.read_text(encoding="utf-8") if log.exists() else ""
                    if wanted in text.splitlines():
                        break
                    assert child.poll() is None, (
                        f"{' '.join(self.argv)} ended (status {child.returncode}) before "
                        f"{wanted!r}:\n{text}{(self.tmp / 'interrupted.err').read_text()}"
                    )
                    assert time.monotonic() < deadline, f"no {wanted!r} in the log:\n{text}"
                    time.sleep(0.005)
                if sig == signal.SIGTERM:
                    os.kill(child.pid, sig)  # `kill PID`
                else:
                    os.killpg(child.pid, sig)  # Ctrl-C, or the whole group killed
                try:
                    return child.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.kill(child.pid, signal.SIGUSR1)  # its stack, to say where it was
                    time.sleep(1)
                    raise AssertionError(
                        f"{' '.join(self.argv)} still ran 60 s after {sig.name} at {moment!r};"
                        f" its stack:\n{(self.tmp / 'interrupted.err').read_text()}"
                        f"its events:\n{log.read_text(encoding='utf-8')}"
                    ) from None
            finally:
                try:
                    os.killpg(child.pid, signal.SIGKILL)  # whatever is left of the group
                except ProcessLookupError:
                    pass
                child.wait()


def pick(events: list[str], which: str) -> int:
    """The number of an event of the uninterrupted run: "first write", "last write",
    "first rename" (a rename or replace), "middle" or "last" (any kind)."""
    kinds = {"write": ("write",), "rename": ("rename", "replace")}
    numbered = [(int(line.split()[0]), line.split()[1]) for line in events]
    assert numbered, "the generator made no write, rename or removal in its folder"
    if which == "middle":
        return numbered[len(numbered) // 2][0]
    if which == "last":
        return numbered[-1][0]
    position, kind = which.split()
    chosen = [number for number, seen in numbered if seen in kinds[kind]]
    assert chosen, f"the uninterrupted run made no {kind}: {events}"
    return chosen[0] if position == "first" else chosen[-1]


def check_whole(state: dict, old: dict, new: dict, sig: signal.Signals, status: int) -> None:
    """After the interruption: each file old or whole and new; no temporary file unless the
    run was killed (SIGKILL cannot be caught: the next run removes them)."""
    if sig != signal.SIGKILL:
        assert status != 0, f"stopped by {sig.name}, yet the exit status is 0"
        extra = sorted(set(state) - set(old) - set(new))
        assert not extra, f"left behind after {sig.name}: {extra}"
    for relative, content in state.items():
        if relative in old or relative in new:
            allowed = [c for c in (old.get(relative, ...), new.get(relative, ...)) if c is not ...]
            assert content in allowed, f"{relative}: neither the old content nor the whole new"
        else:
            assert hidden(relative), f"{relative}: a visible file that no run makes"


def interruption_case(make, old: dict, moment, sig, invariant=None) -> None:
    """Seed a folder with old, interrupt the generator at moment with sig, check the folder,
    run again, and compare with the uninterrupted run's result."""
    generator, folder, reference = make["generator"], make["folder"], make["new"]
    if folder.exists():
        shutil.rmtree(folder)
    restore(folder, old)
    log = generator.tmp / "events.log"
    if isinstance(moment, str) and not moment.startswith("program"):
        moment = pick(make["events"], moment)
    status = generator.interrupt(folder, log, moment, sig)
    state = snapshot(folder)
    check_whole(state, old, reference, sig, status)
    if invariant:
        invariant(state, old, reference, folder)
    generator.run(folder, log)
    assert snapshot(folder) == reference, "the run after the interruption made something else"


def at(event: str, case, *args) -> None:
    """Run one case of a loop over the events, naming the event when it fails."""
    try:
        case(*args)
    except AssertionError as error:
        raise AssertionError(f"interrupted at event {event}: {error}") from None


def restore(folder: Path, files: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for relative, content in files.items():
        path = folder / relative
        if content is None:
            path.mkdir(parents=True, exist_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)


def prepare(generator: Generator, folder: Path, old: dict) -> dict:
    """The uninterrupted run from old: its events and the folder it leaves."""
    if folder.exists():
        shutil.rmtree(folder)
    restore(folder, old)
    events = generator.run(folder, generator.tmp / "events.log")
    new = snapshot(folder)
    assert new != old, "the uninterrupted run changed nothing: nothing to interrupt"
    return {"generator": generator, "folder": folder, "events": events, "new": new}


# Under -n 2, the tests that share one of the module fixtures below (a generator's uninterrupted
# run) go to one worker together (pyproject.toml: --dist loadgroup): each fixture runs once.
SAVES, EXCERPTS, FIGURES, NUMBERS = (
    pytest.mark.xdist_group(f"test_build-{fixture}")
    for fixture in ("saves", "excerpts", "figures", "numbers")
)

MOMENTS = [  # (signal, moment): every signal, at the start, the middle and the end of the writes
    (signal.SIGINT, "first write"),
    (signal.SIGTERM, "middle"),
    (signal.SIGKILL, "first write"),
    (signal.SIGKILL, "last"),
]

# ---------------------------------------------------------------------------------------------
# The harness catches a writer that is not atomic (so a pass below means something)
# ---------------------------------------------------------------------------------------------


def test_the_harness_catches_a_cut_write(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text(
        "import sys\nfrom pathlib import Path\n"
        "Path(sys.argv[1], 'a.txt').write_text('new ' * 1000)\n",
        encoding="utf-8",
    )
    generator = Generator(tmp_path, [str(script), "{folder}"])
    old = {"a.txt": b"old\n"}
    make = prepare(generator, tmp_path / "folder", old)
    with pytest.raises(AssertionError, match="neither the old content nor the whole new"):
        interruption_case(make, old, "first write", signal.SIGKILL)


# ---------------------------------------------------------------------------------------------
# save_output.py: a program's output, its blocks and its numbers, swapped in as one set
# ---------------------------------------------------------------------------------------------


def one_set(state: dict, old: dict, new: dict, folder: Path) -> None:
    """The visible files of demos/prog (whole output, blocks, numbers) are all old or all new;
    or else the staleness check sees the half-swapped set (a block not in its whole output)."""

    def visible(files):
        return {
            name: content
            for name, content in files.items()
            if name.startswith("demos/prog") and not hidden(name)
        }

    shown = visible(state)
    if shown in (visible(old), visible(new)):
        return
    which = {
        name: "old" if content == old.get(name, ...) else "new"
        for name, content in sorted(shown.items())
        if content is not None
    }
    gone = sorted(name for name in {*old, *new} if not hidden(name) and name not in state)
    problems = check_stale.block_problems(folder)
    assert any("out/demos/prog/" in problem for problem in problems), (
        f"a mixed set that the staleness check does not see: {which}, missing {gone}"
    )


@pytest.fixture(scope="module")
def saves(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("save")
    program = tmp / "prog.py"
    program.write_text(PROGRAM, encoding="utf-8")

    def generator(version):
        argv = [str(SCRIPTS / "save_output.py"), "--root", "{folder}", "demos", "prog", "--"]
        return Generator(tmp, [*argv, sys.executable, str(program), version])

    seed = tmp / "seed"
    generator("old").run(seed, tmp / "events.log")
    old = snapshot(seed)
    assert "demos/prog/gone.txt" in old, sorted(old)
    return old, prepare(generator("new"), tmp / "out", old)


@SAVES
def test_save_output_makes_the_new_set(saves):
    old, make = saves
    new = make["new"]
    assert new["demos/prog.txt"] == b"a program, new\none (new)\n" + (
        b"a block only the new version prints\nand its second line\n"
    )
    assert (
        new["demos/prog/added.txt"] == b"a block only the new version prints\nand its second line\n"
    )
    assert "demos/prog/gone.txt" not in new
    stated = json.loads(new["demos/prog.numbers.json"])
    assert stated["prog_count"]["value"] == 2 and stated["prog_label"]["value"] == "a*b <c>"


@SAVES
@pytest.mark.parametrize(
    "sig, moment",
    [
        (signal.SIGINT, "program 2"),  # while the program prints
        (signal.SIGTERM, "program 5"),
        (signal.SIGKILL, "program 3"),
        (signal.SIGINT, "first write"),  # while the set is written
        (signal.SIGTERM, "middle"),
        (signal.SIGINT, "first rename"),
        (signal.SIGTERM, "last"),
    ],
    ids=lambda value: value.name if isinstance(value, signal.Signals) else value,
)
def test_save_output_interrupted(saves, sig, moment):
    old, make = saves
    interruption_case(make, old, moment, sig, one_set)


@SAVES
def test_save_output_interrupted_at_every_moment_by_sigkill(saves):
    """SIGKILL at every event of the save, one after the other: never a cut file, never a mixed
    set that the staleness check would not see, and the next run makes the new set."""
    old, make = saves
    for number, event in enumerate(make["events"], 1):
        at(event, interruption_case, make, old, number, signal.SIGKILL, one_set)


# ---------------------------------------------------------------------------------------------
# make_excerpts.py: many files; the files of regions that are gone are removed last
# ---------------------------------------------------------------------------------------------

OLD_SOURCES = {
    "uopc/mod.py": [("double", "return 2 * x"), ("half", "return x // 2"), ("gone", "pass")],
    "uopc/other.py": [("keep", "return 1"), ("change", "return 'old'")],
    "demos/old_demo.py": [("only", "print('a demo that goes')")],
}
NEW_SOURCES = {
    "uopc/mod.py": [("double", "return x + x"), ("half", "return x // 2"), ("added", "pass")],
    "uopc/other.py": [("keep", "return 1"), ("change", "return 'new' * 40")],
    "code/new_step.py": [("first", "print('a new step')")],
}


def write_sources(root: Path, sources: dict) -> None:
    for folder in ("uopc", "demos", "code"):
        shutil.rmtree(root / folder, ignore_errors=True)
    for name, regions in sources.items():
        text = "".join(
            f"# --8<-- [start:{region}]\ndef {region}(x):\n    {body}\n# --8<-- [end:{region}]\n\n"
            for region, body in regions
        )
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def removals_last(state: dict, old: dict, new: dict, folder: Path) -> None:
    """An excerpt that is no longer made is removed only once every new one is in place."""
    removed = [name for name in old if name not in new and name not in state]
    if removed:
        for name, content in new.items():
            assert state.get(name, ...) == content, f"{removed} removed before {name} was written"


@pytest.fixture(scope="module")
def excerpts(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("excerpts")
    root = tmp / "root"
    script = str(SCRIPTS / "make_excerpts.py")
    generator = Generator(tmp, [script, "--root", str(root), "--out", "{folder}"])
    write_sources(root, OLD_SOURCES)
    generator.run(tmp / "seed", tmp / "events.log")
    old = snapshot(tmp / "seed")
    write_sources(root, NEW_SOURCES)
    return old, prepare(generator, tmp / "excerpts", old)


@EXCERPTS
@pytest.mark.parametrize(
    "sig, moment",
    [
        *MOMENTS,
        (signal.SIGINT, "last"),
        (signal.SIGTERM, "first rename"),
        (signal.SIGINT, "middle"),
    ],
    ids=lambda value: value.name if isinstance(value, signal.Signals) else value,
)
def test_make_excerpts_interrupted(excerpts, sig, moment):
    old, make = excerpts
    interruption_case(make, old, moment, sig, removals_last)


@EXCERPTS
def test_make_excerpts_interrupted_at_every_moment(excerpts):
    old, make = excerpts
    for number, event in enumerate(make["events"], 1):
        sig = (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)[number % 3]
        at(f"{sig.name} at {event}", interruption_case, make, old, number, sig, removals_last)


@EXCERPTS
def test_make_excerpts_check_names_a_leftover(excerpts, tmp_path):
    old, make = excerpts
    restore(tmp_path / "excerpts", make["new"])
    leftover = tmp_path / "excerpts" / "uopc" / "mod" / ".double.py.x1y2.part"
    leftover.write_text("half a fi", encoding="utf-8")
    script = SCRIPTS / "make_excerpts.py"
    root = make["generator"].argv[2]
    done = subprocess.run(
        [sys.executable, script, "--check", "--root", root, "--out", tmp_path / "excerpts"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "a temporary file of an interrupted run" in done.stderr


# ---------------------------------------------------------------------------------------------
# make_figures.py: every figure drawn in memory, then each written whole
# ---------------------------------------------------------------------------------------------


# The quick run draws four figures, not the whole table: two that the older code drew otherwise
# and two it had not drawn. It is the same write_all and write_atomic, over fewer files, each
# interrupted in the middle of the writes as before; the figures themselves are drawn (twice, and
# compared) by tests/test_figures.py. The drawing was most of this case's time: the plots alone
# import matplotlib. --full draws every figure, through the script itself.
QUICK_FIGURES = ("relu.svg", "pipeline.svg", "sharing.svg", "index_before.svg")
SOME_FIGURES = f"""\
import sys
import make_figures
make_figures.FIGURES = [f for f in make_figures.FIGURES if f.name in {QUICK_FIGURES!r}]
make_figures.main(sys.argv[1:])
"""


def figures_generator(tmp: Path, args: list[str]) -> Generator:
    """make_figures.py with args; at quick sizes a script that draws only QUICK_FIGURES."""
    if os.environ.get("UOPC_FULL") == "1":
        return Generator(tmp, [str(SCRIPTS / "make_figures.py"), *args])
    script = tmp / "some_figures.py"
    script.write_text(SOME_FIGURES, encoding="utf-8")
    path = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(SCRIPTS)]))
    return Generator(tmp, [str(script), *args], {"PYTHONPATH": path})


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    if shutil.which("dot") is None:
        pytest.skip("graphviz is not installed")
    tmp = tmp_path_factory.mktemp("figures")
    data = tmp / "bench.json"
    data.write_text(json.dumps(SAMPLE), encoding="utf-8")
    generator = figures_generator(tmp, ["--out", "{folder}", "--data", str(data)])
    # the figures of an older code: two of them drawn otherwise, the others not drawn yet
    old = {
        name: b'<svg xmlns="http://www.w3.org/2000/svg"/>\n'
        for name in ("relu.svg", "pipeline.svg")
    }
    return old, prepare(generator, tmp / "figures", old)


# Each case draws the figures twice. The quick run keeps one, in the middle of the writes: the
# others are the cases of the same write_atomic that the generators above meet at every moment.
FIGURES_FULL = pytest.mark.full_only("one case of make_figures.py in the quick run, SIGTERM")


@FIGURES
@pytest.mark.parametrize(
    "sig, moment",
    [
        pytest.param(signal.SIGINT, "first write", marks=FIGURES_FULL),
        (signal.SIGTERM, "middle"),
        pytest.param(signal.SIGKILL, "last write", marks=FIGURES_FULL),
    ],
    ids=lambda value: value.name if isinstance(value, signal.Signals) else value,
)
def test_make_figures_interrupted(figures, sig, moment):
    old, make = figures
    interruption_case(make, old, moment, sig)


# ---------------------------------------------------------------------------------------------
# make_numbers.py: out/numbers.json, merged from a copy of the saved outputs
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def numbers(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("numbers")
    generator = Generator(tmp, [str(SCRIPTS / "make_numbers.py"), "--out", "{folder}"])
    shutil.copytree(REPO / "out", tmp / "seed", ignore=shutil.ignore_patterns(".*.part"))
    old = snapshot(tmp / "seed")
    # an older numbers.json: one value changed, one key that is no longer stated
    if "numbers.json" in old:
        stated = json.loads(old["numbers.json"])
        stated["no_longer_stated"] = 1
    else:
        stated = {"no_longer_stated": 1}
    old["numbers.json"] = (json.dumps(stated, indent=1) + "\n").encode()
    return old, prepare(generator, tmp / "out", old)


@NUMBERS
@pytest.mark.parametrize(
    "sig, moment",
    [*MOMENTS, (signal.SIGTERM, "last"), (signal.SIGINT, "first rename")],
    ids=lambda value: value.name if isinstance(value, signal.Signals) else value,
)
def test_make_numbers_interrupted(numbers, sig, moment):
    old, make = numbers
    interruption_case(make, old, moment, sig)
