"""The command line, `python -m uopc`: one test per command and one per kind of error.

Each case runs the real command in a subprocess from an empty folder (so that `python -m` does
not put the checkout ahead of a mutated copy of uopc on PYTHONPATH) on the generated examples
in code/examples/. Every failure must be one line on stderr starting with `uopc: `, nothing on
stdout, and exit status 2.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import uopc.__main__ as cli
from uopc import F32, I32, CallArg, Ops, ParamArg, Ptr, UOp, UOpError
from uopc.render import render
from uopc.textfmt import dumps, loads

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "code" / "examples"
RELU, ADD3, INDEX = (str(EXAMPLES / name) for name in ("relu.uop", "add3.uop", "index.uop"))
needs_clang = pytest.mark.needs_clang


def hear_ctrl_c() -> None:
    """In the child, before it starts: SIGINT back to its default. A shell that starts a job in
    the background (`cmd &`) sets it to be ignored, the child inherits that, and Python then
    installs no handler of its own, so the child would never see the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def environment(**changes) -> dict:
    env = dict(os.environ, **changes)
    # the checkout after whatever PYTHONPATH already holds (a mutated uopc stays first)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(ROOT)]))
    return env


def uopc(tmp_path, *args, stdin=None, **env_changes):
    """Run `python -m uopc ARGS` in tmp_path; returns (status, stdout, stderr)."""
    done = subprocess.run(
        [sys.executable, "-m", "uopc", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment(**env_changes),
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def assert_one_error_line(result, expected: str) -> None:
    status, out, err = result
    assert (status, out) == (2, ""), result
    assert err.startswith("uopc: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert expected in err, err


def program_text(path: str) -> str:
    """The text of an example as `dumps` writes it back (the title of the header is dropped)."""
    return dumps(loads(Path(path).read_text(encoding="utf-8")))


# ---------------------------------------------------------------------------------------------
# The examples are generated, not typed
# ---------------------------------------------------------------------------------------------


def test_examples_are_what_the_script_writes(tmp_path):
    script = EXAMPLES / "make_examples.py"
    done = subprocess.run(
        [sys.executable, str(script), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        env=environment(),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    for name in ("relu.uop", "add3.uop", "index.uop"):
        assert (tmp_path / name).read_bytes() == (EXAMPLES / name).read_bytes(), name


# ---------------------------------------------------------------------------------------------
# One test per command
# ---------------------------------------------------------------------------------------------


def test_show(tmp_path):
    status, out, err = uopc(tmp_path, "show", RELU)
    assert (status, err) == (0, "")
    text, infix_lines = out.split("\n\n")
    assert text + "\n" == program_text(RELU)
    assert infix_lines == "call: relu(p0, p1)\nbody: max(((p0 * p1) + 1.0), 0.0)\n"


@pytest.mark.parametrize(
    "path, names, last_line",
    [
        (RELU, "x,y", "body: max(((x * y) + 1.0), 0.0)"),
        (INDEX, "i,j", "infix: (((i * 4) + j) // 4)"),
        (INDEX, None, "infix: (((p0 * 4) + p1) // 4)"),
        (ADD3, None, "body: sink(store(index(after(after(p2, store(index(p2, 0), "),
    ],
)
def test_show_names(tmp_path, path, names, last_line):
    status, out, _ = uopc(tmp_path, "show", path, *(["--names", names] if names else []))
    assert status == 0 and out.splitlines()[-1].startswith(last_line)


def test_show_reads_stdin(tmp_path):
    text = Path(INDEX).read_text(encoding="utf-8")
    status, out, _ = uopc(tmp_path, "show", "-", stdin=text)
    assert status == 0 and out.startswith(program_text(INDEX))


def test_check(tmp_path):
    status, out, err = uopc(tmp_path, "check", INDEX)
    assert (status, err) == (0, "")
    rows = [line.split() for line in out.splitlines()]
    # the reference ranges of the specification (compiler.md 6.4): i*4, i*4+j, (i*4+j)//4
    assert rows == [
        ["%0", "param", "i32", "()", "ALU", "[0,", "15]", "safe"],
        ["%1", "const", "i32", "()", "ALU", "[4,", "4]", "safe"],
        ["%2", "mul", "i32", "()", "ALU", "[0,", "60]", "safe"],
        ["%3", "param", "i32", "()", "ALU", "[0,", "3]", "safe"],
        ["%4", "add", "i32", "()", "ALU", "[0,", "63]", "safe"],
        ["%5", "floordiv", "i32", "()", "ALU", "[0,", "15]", "safe"],
        ["ok:", "6", "nodes,", "every", "one", "well", "typed"],
    ]


def test_check_memory_and_unsafe(tmp_path):
    big = UOp(Ops.PARAM, arg=ParamArg(0, I32, 0, 2**30))
    status, out, _ = uopc(tmp_path, "check", write(tmp_path, "big.uop", dumps(big * 4)))
    assert status == 0 and out.splitlines()[2].endswith("[-2147483648, 2147483647] unsafe")
    status, out, _ = uopc(tmp_path, "check", ADD3)
    lines = out.splitlines()
    assert lines[0].split() == ["%0", "param", "ptr<f32,3>", "(3,)", "MEM"]  # no range
    assert lines[10].split() == ["%10", "store", "void", "()", "None"]


def test_simplify(tmp_path):
    status, out, err = uopc(tmp_path, "simplify", INDEX)
    assert (status, err) == (0, "")
    assert out == "; uop v1\n%0 = param : dtype=i32 slot=0 min=0 max=15\n"  # (i*4+j)//4 is i


def test_simplify_stats(tmp_path):
    status, out, _ = uopc(tmp_path, "simplify", "--stats", INDEX)
    program, stats = out.split("\n\n")
    assert (
        status == 0 and program + "\n" == "; uop v1\n%0 = param : dtype=i32 slot=0 min=0 max=15\n"
    )
    lines = stats.splitlines()
    assert lines[0] == "nodes: 6 before, 1 after"
    fired = {line.rsplit(None, 1)[0].strip(): int(line.split()[-1]) for line in lines[2:]}
    assert lines[1] == f"rules fired: {sum(fired.values())}" and fired["(a*c1+b)//c2"] == 1


def test_simplify_fast_math(tmp_path):
    x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
    path = write(tmp_path, "x_plus_zero.uop", dumps(x + 0.0))
    strict = uopc(tmp_path, "simplify", path)
    fast = uopc(tmp_path, "simplify", "--fast-math", path)
    assert strict == (0, dumps(x + 0.0), "")  # x + 0.0 is -0.0 at x = -0.0: it must stay
    assert fast == (0, dumps(x), "")


def test_simplify_stats_count_one_run_only(capsys):
    # `fired` counts every run in the process; the stats must be this run's difference
    # (the exact rules can depend on which nodes other tests left alive, since canonical order
    # compares ids; what must hold is that a second run reports what the first did)
    outputs = []
    for _ in range(2):
        assert cli.main(["simplify", "--stats", INDEX]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and "rules fired: " in outputs[0]


def test_render(tmp_path):
    status, out, err = uopc(tmp_path, "render", RELU)
    assert (status, err) == (0, "")
    assert out == render(loads(Path(RELU).read_text(encoding="utf-8")))
    assert "float relu(float p0, float p1) {\n" in out


@needs_clang
@pytest.mark.parametrize(
    "values, line",
    [
        (["2.0", "3.0"], "relu(2.0, 3.0) = 7.0"),
        (["2", "-5"], "relu(2.0, -5.0) = 0.0"),
        (["nan", "1"], "relu(nan, 1.0) = 0.0"),  # max(nan, 0.0) is 0.0 in the contract
        (["0.1", "1"], f"relu({0.10000000149011612!r}, 1.0) = 1.100000023841858"),
        (["--", "-inf", "-inf"], "relu(-inf, -inf) = inf"),
    ],
)
def test_run_value_call(tmp_path, values, line):
    compiled = uopc(tmp_path, "run", RELU, *values)
    interpreted = uopc(tmp_path, "run", "--interp", RELU, *values)
    assert compiled == interpreted == (0, line + "\n", "")


@needs_clang
def test_run_memory_call(tmp_path):
    buffers = "[[1, 2, 3], [10, 20, 30], [0, 0, 0]]"
    expected = (
        "add3(b0, b1, b2)\nb0 = [1.0, 2.0, 3.0]\nb1 = [10.0, 20.0, 30.0]\nb2 = [11.0, 22.0, 33.0]\n"
    )
    assert uopc(tmp_path, "run", ADD3, "--buffers", buffers) == (0, expected, "")
    assert uopc(tmp_path, "run", ADD3, "--interp", "--buffers", buffers) == (0, expected, "")
    status, out, _ = uopc(tmp_path, "run", ADD3)  # no --buffers: every buffer starts at zero
    assert status == 0 and out.splitlines()[-1] == "b2 = [0.0, 0.0, 0.0]"


def test_dot(tmp_path):
    status, out, err = uopc(tmp_path, "dot", ADD3)
    assert (status, err) == (0, "") and uopc(tmp_path, "dot", ADD3)[1] == out  # deterministic
    root = loads(Path(ADD3).read_text(encoding="utf-8"))
    nodes = root.toposort()
    node_lines = [line for line in out.splitlines() if "[label=" in line]
    edge_lines = [line for line in out.splitlines() if " -> " in line]
    assert len(node_lines) == len(nodes) == 34
    assert len(edge_lines) == sum(len(u.src) for u in nodes)
    # an AFTER's srcs after the first only order memory: those edges, and no others, are dashed
    ordering = sum(len(u.src) - 1 for u in nodes if u.op is Ops.AFTER)
    assert ordering == 2 and sum("style=dashed" in line for line in edge_lines) == ordering
    assert '  n33 [label="call add3"];' in node_lines and out.startswith("digraph uop {\n")


# ---------------------------------------------------------------------------------------------
# One test per kind of error
# ---------------------------------------------------------------------------------------------

BAD_OP = "; uop v1\n%0 = param : dtype=f32 slot=0\n%1 = frob %0\n"
ILL_TYPED = (
    "; uop v1\n%0 = param : dtype=f32 slot=0\n%1 = const : dtype=i32 value=1\n%2 = add %0, %1\n"
)


@pytest.mark.parametrize(
    "text, message",
    [
        (BAD_OP, "bad.uop: line 3: unknown op 'frob'"),
        (ILL_TYPED, "bad.uop: line 4: ADD: needs two srcs of the same dtype"),  # a UOpError
        ("uop v1\n", "bad.uop: the first line must be '; uop v1'"),
        ("; uop v1\n%0 = add %1, %1\n", "bad.uop: line 2: '%1' is not defined above this line"),
    ],
)
def test_bad_file(tmp_path, text, message):
    path = write(tmp_path, "bad.uop", text)
    assert_one_error_line(uopc(tmp_path, "check", path), message)


def test_bad_file_on_stdin(tmp_path):
    result = uopc(tmp_path, "dot", "-", stdin=BAD_OP)
    assert_one_error_line(result, "uopc: <stdin>: line 3: unknown op 'frob'")


def test_missing_file(tmp_path):
    result = uopc(tmp_path, "show", "no_such.uop")
    assert_one_error_line(result, "uopc: cannot read no_such.uop: No such file or directory")


def test_not_text(tmp_path):
    path = tmp_path / "binary.uop"
    path.write_bytes(b"; uop v1\n\xff\xfe\n")
    assert_one_error_line(uopc(tmp_path, "show", str(path)), "binary.uop: not a UTF-8 text file")


def unbounded_index_call() -> UOp:
    # out[0] = a[k] with k an i32 param that has no declared range
    k = UOp(Ops.PARAM, arg=ParamArg(1, I32))
    a = UOp(Ops.PARAM, arg=ParamArg(0, Ptr(F32, 3)))
    load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (a, k)),))
    store = UOp(Ops.STORE, (UOp(Ops.INDEX, (a, UOp.const(0))), load))
    args = (UOp(Ops.BUFFER, arg=ParamArg(0, Ptr(F32, 3))), UOp.const(0))
    return UOp(Ops.CALL, (UOp.sink(store), *args), CallArg("pick"))


def bounded_call() -> UOp:
    i = UOp(Ops.PARAM, arg=ParamArg(0, I32, 0, 15))
    return UOp(Ops.CALL, (i // 4, UOp.const(0)), CallArg("quarter"))


BAD_ARGUMENTS = [
    # (file, arguments, the message)
    (RELU, ["1.0"], "relu takes 2 scalar argument(s) (f32, f32), got 1"),
    (RELU, ["1", "2", "3"], "relu takes 2 scalar argument(s) (f32, f32), got 3"),
    (RELU, ["1.0", "abc"], 'argument 1 wants f32, got "abc"'),
    (RELU, ["1", "-1e3"], "values that start with '-' go after '--'"),
    ("bounded", ["1.5"], 'argument 0 wants i32, got "1.5"'),
    ("bounded", ["2147483648"], 'argument 0 wants i32, got "2147483648"'),
    ("bounded", ["16"], "argument 0 is 16, outside [0, 15]"),
    (ADD3, ["--buffers", "[[1, 2, 3]"], "--buffers is not valid JSON"),
    (ADD3, ["--buffers", '{"a": 1}'], "--buffers must be a JSON list of lists"),
    (ADD3, ["--buffers", "[[1, 2, 3], [1, 2, 3]]"], "add3 takes 3 buffer(s), --buffers gave 2"),
    (ADD3, ["--buffers", "[[1, 2], [1, 2, 3], [1, 2, 3]]"], "argument 0 holds 3 elements, got 2"),
    (ADD3, ["--buffers", '[[1, 2, "x"], [], []]'], 'element 2, wants f32, got "x"'),
    ("pick", ["0"], "an index may reach [-2147483648, 2147483647], outside a buffer of 3"),
    (INDEX, [], "run needs a CALL at the root of"),
]


@pytest.mark.parametrize("path, arguments, message", BAD_ARGUMENTS)
def test_bad_argument(tmp_path, path, arguments, message):
    built = {"bounded": bounded_call, "pick": unbounded_index_call}
    if path in built:
        path = write(tmp_path, f"{path}.uop", dumps(built[path]()))
    assert_one_error_line(uopc(tmp_path, "run", path, *arguments), message)


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["render", INDEX], "render needs a CALL at the root of"),
        (["show", RELU, "--names", "x,,y"], "--names: empty name in 'x,,y'"),
        (["frobnicate", RELU], "invalid choice: 'frobnicate'"),
        (["check"], "the following arguments are required: FILE"),
        (["simplify", RELU, "--fast"], "unrecognized arguments: --fast"),
    ],
)
def test_bad_command_line(tmp_path, arguments, message):
    assert_one_error_line(uopc(tmp_path, *arguments), message)


def test_help(capsys):
    for command in cli.COMMANDS:
        with pytest.raises(SystemExit) as done:
            cli.main([command, "--help"])
        assert done.value.code == 0
        assert capsys.readouterr().out.startswith(f"usage: python -m uopc {command} ")


def test_missing_clang(tmp_path):
    empty = tmp_path / "empty_bin"
    empty.mkdir()  # no clang on this PATH; python itself is started by its full path
    result = uopc(tmp_path, "run", RELU, "1", "2", PATH=str(empty))
    assert_one_error_line(result, "uopc: clang not found: install it")


def test_clang_fails(tmp_path):
    fake = tmp_path / "fake_bin"
    fake.mkdir()
    (fake / "clang").write_text(
        '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "fake clang 1.0"; exit 0; fi\n'
        'echo "k.c:3:1: warning: a warning first" >&2\n'
        'echo "k.c:7:2: error: this compiler refuses everything" >&2\nexit 1\n'
    )
    (fake / "clang").chmod(0o755)
    result = uopc(tmp_path, "run", RELU, "1", "2", PATH=str(fake), UOPC_CACHE=str(tmp_path / "c"))
    assert_one_error_line(
        result, "uopc: clang failed: k.c:7:2: error: this compiler refuses everything"
    )


def test_a_uop_error_inside_a_command(monkeypatch, capsys):
    # A file that loads is well typed, so a UOpError can only come from inside uopc; it must
    # still be one line, not a traceback.
    def broken(args):
        UOp.const(2**31)

    monkeypatch.setitem(cli.COMMANDS, "show", cli.Command(broken, "show"))
    assert cli.main(["show", RELU]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "uopc: UOpError: CONST: 2147483648 does not fit in int32\n"
    with pytest.raises(UOpError):  # the check above really made a UOpError
        broken(None)


@pytest.mark.parametrize("where", ["file", "below-a-file"])
def test_cache_at_a_file(tmp_path, where):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    path = blocker if where == "file" else blocker / "cache"
    result = uopc(tmp_path, "run", RELU, "1", "2", UOPC_CACHE=str(path))
    assert_one_error_line(result, f"uopc: cache directory {path}: ")


def test_cache_others_can_write(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    result = uopc(tmp_path, "run", RELU, "1", "2", UOPC_CACHE=str(shared))
    assert_one_error_line(result, "is writable by other users")


@pytest.mark.parametrize("name", ["exit", "abort", "_Exit", "_FuncPtr", "_handle", "int", "NAN"])
@pytest.mark.parametrize("command", ["run", "render"])
def test_a_call_name_that_would_lie_is_refused(tmp_path, command, name):
    text = Path(RELU).read_text().replace("name=relu", f"name={name}")
    path = tmp_path / "named.uop"
    path.write_text(text)
    result = uopc(tmp_path, command, str(path), *(["1", "2"] if command == "run" else []))
    assert_one_error_line(result, f"uopc: render: the call's name '{name}' ")
