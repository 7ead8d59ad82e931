"""Unit cases of the runtime (`uopc.runtime`): the cache, compiler errors, buffers and calls.

Every test that compiles uses its own empty cache directory, so the compile and hit counts it
reads are its own.
"""

import ctypes
import math
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from uopc import (
    BOOL,
    F32,
    I32,
    INT_MAX,
    INT_MIN,
    CallArg,
    Ops,
    ParamArg,
    Ptr,
    UOp,
    UOpError,
    runtime,
)
from uopc.builder import signature_call
from uopc.interp import evaluate
from uopc.runtime import CTYPE, Buffer, Program, compile_c, execute
from uopc.semantics import f32, same
from uopc.textfmt import MAX_QUOTE
from verify.generators import buffer, load, ptr_param, store

needs_clang = pytest.mark.skipif(shutil.which(runtime.CC) is None, reason="clang is not installed")

SOURCE = "int answer(void) { return 42; }\n"


@pytest.fixture
def cache(monkeypatch, tmp_path):
    """An empty cache directory for one test, and STATS counted from zero."""
    monkeypatch.setattr(runtime, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(runtime, "STATS", {"compiles": 0, "hits": 0, "compile_seconds": 0.0})
    return tmp_path / "cache"


def param(slot, dtype):
    return UOp(Ops.PARAM, (), ParamArg(slot, dtype))


def add_call():
    """c[k] = a[k] + b[k] for k < 3: a memory call over three buffers."""
    a, b, c = ptr_param(0, 3), ptr_param(1, 3), ptr_param(2, 3)
    body = UOp.sink(*(store(c, k, load(a, k) + load(b, k)) for k in range(3)))
    return UOp(Ops.CALL, (body, buffer(0, 3), buffer(1, 3), buffer(2, 3)), CallArg("add3"))


def scalar_call(body, *dtypes, name="f"):
    return signature_call(body, dtypes, name)


# ---------------------------------------------------------------------------------------------
# settings
# ---------------------------------------------------------------------------------------------


def test_settings():
    assert runtime.CC == "clang"
    assert runtime.CFLAGS == [
        "-O2", "-fwrapv", "-ffp-contract=off", "-fno-fast-math", "-std=c11", "-shared", "-fPIC",
    ]  # fmt: skip
    assert set(runtime.STATS) == {"compiles", "hits", "compile_seconds"}


@pytest.mark.parametrize(
    "dtype, ctype",
    [
        (BOOL, ctypes.c_bool),
        (I32, ctypes.c_int32),
        (F32, ctypes.c_float),
        (Ptr(F32, 4), ctypes.POINTER(ctypes.c_float)),
        (Ptr(I32, 2), ctypes.POINTER(ctypes.c_int32)),
    ],
    ids=str,
)
def test_ctype(dtype, ctype):
    assert runtime.ctype_of(dtype) is ctype
    if not isinstance(dtype, Ptr):
        assert CTYPE[dtype] is ctype


@pytest.mark.parametrize(
    "environment, expected",
    [({"UOPC_CACHE": "/some/where"}, "/some/where"), ({}, "uopc")],
    ids=["UOPC_CACHE", "default"],
)
def test_cache_dir_read_at_import(environment, expected):
    env = {k: v for k, v in os.environ.items() if k != "UOPC_CACHE"} | environment
    code = "import uopc.runtime as r; print(r.CACHE_DIR)"
    printed = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert printed.endswith(expected) and os.path.isabs(printed)


# ---------------------------------------------------------------------------------------------
# compile_c and the cache
# ---------------------------------------------------------------------------------------------


@needs_clang
def test_compile_then_hit(cache):
    first = compile_c(SOURCE)
    second = compile_c(SOURCE)
    assert first == second and os.path.exists(first)
    assert (runtime.STATS["compiles"], runtime.STATS["hits"]) == (1, 1)
    assert runtime.STATS["compile_seconds"] > 0.0
    name = os.path.basename(first)
    assert len(name) == len("0" * 24 + ".so") and all(ch in "0123456789abcdef" for ch in name[:24])
    # the library, its source and its recorded sha256; no temporary left
    assert sorted(os.listdir(cache)) == sorted([name, name[:24] + ".c", name + ".sha256"])


@needs_clang
def test_program_twice_compiles_once(cache):
    call = scalar_call(param(0, F32) + param(1, F32), F32, F32, name="add")
    assert Program(call)(1.5, 2.25) == 3.75
    assert Program(call)(1.0, 2.0) == 3.0
    assert (runtime.STATS["compiles"], runtime.STATS["hits"]) == (1, 1)


@needs_clang
@pytest.mark.parametrize(
    "change",
    [
        lambda: compile_c(SOURCE + "\n"),
        lambda: compile_c(SOURCE, flags=[*runtime.CFLAGS[1:], "-O1"]),
        lambda: compile_c(SOURCE, flags=runtime.CFLAGS[::-1]),
    ],
    ids=["source", "flags", "flag order"],
)
def test_any_change_gives_a_new_library(cache, change):
    assert change() != compile_c(SOURCE)
    assert runtime.STATS["compiles"] == 2


def test_key_covers_compiler_and_version(monkeypatch):
    monkeypatch.setattr(runtime, "compiler_version", lambda cc: f"{cc} version 1")
    key = runtime.cache_key(SOURCE, "clang", runtime.CFLAGS)
    assert len(key) == 24
    assert runtime.cache_key(SOURCE, "gcc", runtime.CFLAGS) != key
    monkeypatch.setattr(runtime, "compiler_version", lambda cc: f"{cc} version 2")
    assert runtime.cache_key(SOURCE, "clang", runtime.CFLAGS) != key


def test_key_covers_every_flag(monkeypatch):
    """Second catcher for the planted bug "runtime: cache key ignores the flags", without
    compiling: one flag more, or the flags in another order, is another key."""
    monkeypatch.setattr(runtime, "compiler_version", lambda cc: f"{cc} version 1")
    key = runtime.cache_key(SOURCE, "clang", runtime.CFLAGS)
    assert runtime.cache_key(SOURCE, "clang", [*runtime.CFLAGS, "-g"]) != key
    assert runtime.cache_key(SOURCE, "clang", runtime.CFLAGS[::-1]) != key


@needs_clang
def test_compiler_failure_names_the_source(cache):
    with pytest.raises(RuntimeError) as failure:
        compile_c("int broken(void) { return undefined_name; }\n")
    message = str(failure.value)
    assert message.startswith("clang failed:\n")
    [c_file] = [name for name in os.listdir(cache) if name.endswith(".c")]
    assert str(cache / c_file) in message and "undefined_name" in message
    assert not [name for name in os.listdir(cache) if not name.endswith(".c")]


@pytest.mark.parametrize("how", ["argument", "setting"])
def test_missing_compiler_is_a_clear_error(cache, monkeypatch, how):
    missing = "uopc-no-such-compiler"
    with pytest.raises(
        FileNotFoundError, match=f"{missing} not found: install it .*uopc.runtime.CC"
    ):
        if how == "argument":
            compile_c(SOURCE, cc=missing)
        else:
            monkeypatch.setattr(runtime, "CC", missing)
            Program(scalar_call(param(0, F32), F32))


# ---------------------------------------------------------------------------------------------
# Buffer
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype, values, expected",
    [
        (F32, [11, 22, 33], [11.0, 22.0, 33.0]),
        (F32, [0.1], [0.10000000149011612]),  # stored as float32
        (I32, [-1, 2**31 - 1], [-1, 2**31 - 1]),
        (BOOL, [True, False], [True, False]),
    ],
    ids=["f32", "f32 rounding", "i32", "bool"],
)
def test_buffer_copyin_tolist(dtype, values, expected):
    buf = Buffer(dtype, len(values))
    assert buf.tolist() == [type(v)(0) for v in expected]  # zero-filled
    assert buf.copyin(values) is buf
    assert buf.tolist() == expected
    assert [type(v) for v in buf.tolist()] == [type(v) for v in expected]


@pytest.mark.parametrize("count", [2, 4])
def test_copyin_wrong_count(count):
    with pytest.raises(ValueError, match=f"got {count} values for a buffer of 3"):
        Buffer(F32, 3).copyin([1.0] * count)


# ---------------------------------------------------------------------------------------------
# Program
# ---------------------------------------------------------------------------------------------

x, y = param(0, F32), param(1, F32)
i, j = param(0, I32), param(1, I32)

# (case, call, arguments, the result with its Python type)
PROGRAM_CASES = [
    ("f32", scalar_call(x * y + 1.0, F32, F32), (2.0, 3.0), 7.0),
    ("i32 wraps", scalar_call(i + 1, I32), (2**31 - 1,), -(2**31)),
    ("i32 floor", scalar_call(i // j, I32, I32), (-7, 2), -4),
    ("bool", scalar_call(x.lt(y), F32, F32), (1.0, 2.0), True),
    ("bool false", scalar_call(x.lt(y), F32, F32), (2.0, 1.0), False),
    ("no arguments", scalar_call(UOp.const(5)), (), 5),
]


@needs_clang
@pytest.mark.parametrize(
    "case, call, args, expected", PROGRAM_CASES, ids=[c[0] for c in PROGRAM_CASES]
)
def test_program_result(case, call, args, expected):
    result = Program(call)(*args)
    assert result == expected and type(result) is type(expected)


@needs_clang
def test_program_fields():
    call = scalar_call(x + y, F32, F32, name="add")
    program = Program(call)
    assert program.call is call and "float add(float p0, float p1) {" in program.source
    assert program.fn.restype is ctypes.c_float
    assert list(program.fn.argtypes) == [ctypes.c_float, ctypes.c_float]
    assert Program(add_call()).fn.restype is None


@needs_clang
@pytest.mark.parametrize("args", [(1.0,), (1.0, 2.0, 3.0)], ids=["too few", "too many"])
def test_program_argument_count(args):
    program = Program(scalar_call(x + y, F32, F32, name="add"))
    with pytest.raises(TypeError, match=f"add takes 2 arguments, got {len(args)}"):
        program(*args)


def test_program_refuses_a_non_call():
    with pytest.raises(TypeError, match="Program needs a CALL, got ADD"):
        Program(x + y)


@needs_clang
@pytest.mark.parametrize(
    "wrong, error, message",
    [
        ([1.0, 2.0, 3.0], TypeError, "argument 1 must be a Buffer, got list"),
        (Buffer(F32, 4), ValueError, "argument 1 is a buffer of 4 f32, the call wants ptr<f32,3>"),
        (Buffer(I32, 3), ValueError, "argument 1 is a buffer of 3 i32, the call wants ptr<f32,3>"),
    ],
    ids=["list", "size", "dtype"],
)
def test_program_checks_buffers(wrong, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")):
        Program(add_call())(Buffer(F32, 3), wrong, Buffer(F32, 3))


# ---------------------------------------------------------------------------------------------
# execute and aliasing
# ---------------------------------------------------------------------------------------------


@needs_clang
def test_execute_memory_call():
    a = Buffer(F32, 3).copyin([1, 2, 3])
    result = execute(add_call(), {0: a, 1: [10, 20, 30]})
    assert result[0] is a and [b.tolist() for b in result] == [
        [1.0, 2.0, 3.0],
        [10.0, 20.0, 30.0],
        [11.0, 22.0, 33.0],
    ]


@needs_clang
def test_execute_fills_missing_buffers_with_zeros():
    result = execute(add_call(), {1: [1, 2, 3]})
    assert result[2].tolist() == [1.0, 2.0, 3.0]


@needs_clang
def test_execute_value_call_with_constants():
    call = UOp(Ops.CALL, (x * y + 1.0, UOp.const(2.0), UOp.const(3.0)), CallArg("relu"))
    assert execute(call) == 7.0


@needs_clang
def test_execute_mixed_arguments():
    """A memory call with a constant argument: None at its position in the result."""
    out = ptr_param(0, 1)
    body = UOp.sink(store(out, 0, param(1, F32) * 2.0))
    call = UOp(Ops.CALL, (body, buffer(0, 1), UOp.const(4.0)), CallArg("twice"))
    result = execute(call)
    assert result[1] is None and result[0].tolist() == [8.0]


@pytest.mark.parametrize(
    "buffers, message",
    [
        ({3: [1, 2, 3]}, "no argument at position 3"),
        ({"a": [1, 2, 3]}, "no argument at position 'a'"),
    ],
    ids=["position 3", "not a position"],
)
def test_execute_refuses_unknown_positions(buffers, message):
    with pytest.raises(ValueError, match=message):
        execute(add_call(), buffers)


def test_execute_refuses_a_parameter_argument():
    call = UOp(Ops.CALL, (x + 1.0, x), CallArg("f"))
    with pytest.raises(ValueError, match="argument 0 is a PARAM; only BUFFER and CONST"):
        execute(call)


@needs_clang
def test_one_buffer_twice_is_refused():
    a = Buffer(F32, 3).copyin([1, 2, 3])
    with pytest.raises(ValueError, match="arguments 0 and 1 are the same buffer"):
        Program(add_call())(a, a, Buffer(F32, 3))
    with pytest.raises(ValueError, match="arguments 1 and 2 are the same buffer"):
        execute(add_call(), {1: a, 2: a})
    assert a.tolist() == [1.0, 2.0, 3.0]  # refused before anything ran


@needs_clang
def test_one_buffer_twice_when_asked_for():
    a, out = Buffer(F32, 3).copyin([1, 2, 3]), Buffer(F32, 3)
    Program(add_call())(a, a, out, allow_alias=True)
    assert out.tolist() == [2.0, 4.0, 6.0]
    result = execute(add_call(), {0: a, 1: a, 2: a}, allow_alias=True)
    assert result[2] is a and a.tolist() == [2.0, 4.0, 6.0]  # in place: each element once


@needs_clang
def test_scratch_memory():
    """An ALLOC is scratch for one call: written, then read back through AFTER."""
    source, out = ptr_param(0, 2), ptr_param(1, 2)
    scratch = UOp(Ops.ALLOC, (), ParamArg(3, Ptr(F32, 4)))
    first = store(scratch, 2, load(source, 0) * 2.0)
    later = UOp(Ops.AFTER, (scratch, first))
    body = UOp.sink(store(out, 1, load(later, 2) + load(source, 1)))
    call = UOp(Ops.CALL, (body, buffer(0, 2), buffer(1, 2)), CallArg("scratch"))
    assert "  float a3[4];" in Program(call).source.splitlines()
    assert execute(call, {0: [5.0, 0.5]})[1].tolist() == [0.0, 10.5]


# ---------------------------------------------------------------------------------------------
# bounds (issue 11): declared ranges, the element limit, scratch off the stack
# ---------------------------------------------------------------------------------------------


@needs_clang
def test_program_refuses_an_argument_outside_its_declared_range(cache):
    x = UOp(Ops.PARAM, (), ParamArg(0, I32, 0, 100))
    d = UOp(Ops.PARAM, (), ParamArg(1, I32, 1, 10))
    program = Program(scalar_call(x // d, I32, I32))
    assert "p0 / p1" in program.source  # C's plain division, safe only inside [1, 10]
    assert program(7, 2) == 3
    for outside in (0, 11, -5):
        with pytest.raises(ValueError, match=rf"f: argument 1 is {outside}, outside its declared"):
            program(7, outside)  # 0 would be SIGFPE in C
    with pytest.raises(ValueError, match="f: argument 0 is -1, outside its declared"):
        program(-1, 3)


def test_a_buffer_beyond_the_element_limit_is_refused():
    with pytest.raises(ValueError, match="above the limit of 16777216"):
        Buffer(F32, 2**31 - 1)


@needs_clang
def test_large_scratch_is_off_the_stack(cache):
    # 4,000,000 floats on the stack overflow it (SIGSEGV); thread-local static storage does not
    size = 4_000_000
    scratch = UOp(Ops.ALLOC, (), ParamArg(0, Ptr(F32, size)))
    small = UOp(Ops.ALLOC, (), ParamArg(1, Ptr(F32, 4)))
    last = UOp.const(size - 1)
    x = param(0, F32)
    written = UOp(Ops.AFTER, (scratch, UOp(Ops.STORE, (UOp(Ops.INDEX, (scratch, last)), x))))
    kept = UOp(Ops.AFTER, (small, UOp(Ops.STORE, (UOp(Ops.INDEX, (small, UOp.const(3))), x))))
    body = UOp(Ops.LOAD, (UOp(Ops.INDEX, (written, last)),)) + load(kept, 3)
    program = Program(scalar_call(body, F32))
    assert f"  static _Thread_local float a0[{size}];" in program.source
    assert "  float a1[4];" in program.source
    assert program(1.5) == 3.0


# ---------------------------------------------------------------------------------------------
# bounds (issue 21): the size of a compile, its time, the compiler, the values a call takes
# ---------------------------------------------------------------------------------------------


def lines_of_c(count: int) -> str:
    return "".join(f"int v{k};\n" for k in range(count))


@pytest.mark.parametrize("setting, lines", [(None, runtime.MAX_C_LINES + 1), ("50", 51)])
def test_a_source_over_the_size_limit_never_reaches_the_compiler(monkeypatch, setting, lines):
    if setting:
        monkeypatch.setenv("UOPC_MAX_C_LINES", setting)
    # a compiler that does not exist: refused before the version query would start it
    with pytest.raises(runtime.CompilerError) as refused:
        compile_c(lines_of_c(lines), cc="uopc-no-such-compiler")
    limit = int(setting) if setting else runtime.MAX_C_LINES
    assert str(refused.value).startswith(
        f"the C source has {lines:,} lines, above the limit of {limit:,} (set UOPC_MAX_C_LINES"
    )


def test_a_source_at_the_size_limit_goes_on(monkeypatch):
    monkeypatch.setenv("UOPC_MAX_C_LINES", "50")
    with pytest.raises(FileNotFoundError):  # it got as far as looking for the compiler
        compile_c(lines_of_c(50), cc="uopc-no-such-compiler")


@pytest.mark.parametrize("name", ["UOPC_MAX_C_LINES", "UOPC_COMPILE_TIMEOUT"])
@pytest.mark.parametrize("text", ["abc", "0", "-5", "nan", "inf", "1e400"])
def test_a_bad_limit_setting_names_its_variable(monkeypatch, name, text):
    if name == "UOPC_COMPILE_TIMEOUT" and text == "1e400":
        text = "-1e400"  # float("1e400") is inf, refused above; keep the case distinct
    monkeypatch.setenv(name, text)
    with pytest.raises(ValueError, match=f"{name} must be a positive number, got '{text}'"):
        compile_c(SOURCE, cc="uopc-no-such-compiler")


@pytest.mark.parametrize("lines, thousands", [(0, 1), (999, 1), (20_000, 20)])
def test_the_timeout_grows_with_the_size(monkeypatch, lines, thousands):
    monkeypatch.delenv("UOPC_COMPILE_TIMEOUT", raising=False)
    assert runtime.compile_timeout(lines) == runtime.COMPILE_SECONDS * thousands
    monkeypatch.setenv("UOPC_COMPILE_TIMEOUT", "0.5")
    assert runtime.compile_timeout(lines) == 0.5 * thousands


def sleeping_clang(tmp_path, answers_version: bool = True) -> str:
    """A `clang` that never finishes; its sleep runs in a child, whose pid it writes down."""
    script = tmp_path / "clang"
    version = 'if [ "$1" = "--version" ]; then echo "fake clang 1.0"; exit 0; fi\n'
    script.write_text(
        "#!/bin/sh\n"
        + (version if answers_version else "")
        + f"sleep 1000 &\necho $! > {tmp_path / 'sleep.pid'}\nwait\n"
    )
    script.chmod(0o755)
    return str(script)


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat_file:
            return stat_file.read().split()[2] == "Z"  # a zombie has stopped running
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("answers_version", [True, False], ids=["build", "version"])
def test_a_hanging_compiler_is_stopped(cache, tmp_path, monkeypatch, answers_version):
    monkeypatch.setenv("UOPC_COMPILE_TIMEOUT", "1")
    cc = sleeping_clang(tmp_path, answers_version)
    start = time.monotonic()
    with pytest.raises(runtime.CompilerError, match=r"was stopped after 1 s, its time limit"):
        compile_c(SOURCE, cc=cc)
    assert time.monotonic() - start < 10  # the limit, and the time to kill and reap
    pid_file = tmp_path / "sleep.pid"
    if pid_file.exists():  # on a loaded machine the script may be killed before it forks
        pid = int(pid_file.read_text())
        # SIGKILL is delivered, not obeyed at once: on a loaded machine the child may take a
        # moment to stop, so it has two seconds (a child left running never stops)
        deadline = time.monotonic() + 2
        while not gone(pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert gone(pid), "the compiler's own child was left running"
    leftovers = os.listdir(cache) if cache.exists() else []  # the version is asked first
    assert [name for name in leftovers if ".tmp" in name] == []


def test_sigterm_while_compiling_stops_the_compiler(cache, tmp_path):
    """Issue 31: the compiler runs in a session of its own, so SIGTERM to Python alone left it
    running (and its temporary in the cache). While it compiles, SIGTERM ends Python with
    status 143 after killing the compiler's group and removing the temporary."""
    cc = sleeping_clang(tmp_path)
    script = (
        "import sys; from uopc import runtime\n"
        f"runtime.CACHE_DIR = {str(cache)!r}\n"
        f"runtime.compile_c({SOURCE!r}, cc={cc!r})\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    with subprocess.Popen([sys.executable, "-c", script], env=env) as child:
        pid_file = tmp_path / "sleep.pid"
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text().strip()):
            assert time.monotonic() < deadline and child.poll() is None, "the compile never began"
            time.sleep(0.02)
        child.terminate()
        assert child.wait(timeout=60) == 143
    pid, deadline = int(pid_file.read_text()), time.monotonic() + 2
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gone(pid), "the compiler was left running"
    assert [name for name in os.listdir(cache) if ".tmp" in name] == []


def test_a_compile_leaves_a_handler_of_sigterm_as_it_found_it(cache, tmp_path):
    # the handler is set only for the compile, and never over one the program chose
    fast = instant_clang(tmp_path)
    compile_c(SOURCE, cc=fast)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL

    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGTERM, mine)
    try:
        compile_c(SOURCE + "\n", cc=fast)
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, previous)


def instant_clang(tmp_path) -> str:
    """A `clang` that writes an empty file wherever -o points, at once."""
    script = tmp_path / "clang"
    script.write_text('#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done\n')
    script.chmod(0o755)
    return str(script)


def test_a_compile_removes_the_temporaries_whose_writer_is_gone(cache, tmp_path):
    """Issue 31: a compile killed by SIGKILL left its `{key}.XXXX.so.tmp` for ever. The next
    compile removes a temporary whose writer's pid (on this machine) is gone, or that is older
    than a day; a live writer's file, another machine's fresh one and other files stay."""
    with subprocess.Popen(["true"]) as finished:
        pass  # its pid now names no process
    host, key = runtime.HOST, "0123456789abcdef01234567"
    names = {
        f"{key}.{host}-{finished.pid}.abcd_123.so.tmp": False,  # a killed writer
        f"{key}.{host}-{finished.pid}.abcd_124.tmp": False,  # its source or sidecar
        f"{key}.{host}-{os.getpid()}.abcd_125.so.tmp": True,  # a live writer: this process
        f"{key}.0000beef-{finished.pid}.abcd_126.so.tmp": True,  # another machine's, fresh
        f"{key}.abcd_127.so.tmp": True,  # a name from before pids, fresh
        f"{key}.abcd_128.so.tmp": False,  # the same, two days old
        f"{key}.{host}-{os.getpid()}.abcd_129.so.tmp.keep": True,  # not a temporary's name
        "notes.tmp": True,
    }
    cache.mkdir(mode=0o700)
    for name in names:
        (cache / name).write_text("")
    two_days_ago = time.time() - 2 * 86400
    os.utime(cache / f"{key}.abcd_128.so.tmp", (two_days_ago, two_days_ago))
    compile_c(SOURCE, cc=instant_clang(tmp_path))
    left = set(os.listdir(cache))
    assert {name for name, kept in names.items() if kept} <= left
    assert not {name for name, kept in names.items() if not kept} & left
    assert not [name for name in left - set(names) if name.endswith(".tmp")]


@pytest.mark.parametrize("content, mode", [("not a program\n", 0o755), ("", 0o644)])
def test_a_compiler_that_is_not_a_program(cache, tmp_path, content, mode):
    fake = tmp_path / "clang"
    fake.write_text(content)
    fake.chmod(mode)
    with pytest.raises(runtime.CompilerError, match=f"the compiler {fake} cannot be run: "):
        compile_c(SOURCE, cc=str(fake))


# Every value a scalar argument or a buffer element takes must fit its dtype, as the
# interpreter requires; ctypes alone would wrap 2**32 + 5 to 5 and take anything for a bool.
BAD_VALUES = [
    (I32, 2**32 + 5, ValueError, "4294967301 does not fit in int32"),
    (I32, INT_MIN - 1, ValueError, "-2147483649 does not fit in int32"),
    (I32, 2**5000, ValueError, "an int of 5001 bits does not fit in int32"),
    (I32, 1.0, TypeError, "'float' object cannot be interpreted as an integer"),
    (I32, "3", TypeError, "'str' object cannot be interpreted as an integer"),
    (F32, "3", TypeError, "an f32 wants a real number, got str"),
    (F32, 10**400, ValueError, "an int of 1329 bits does not fit in a float"),
]


@needs_clang
@pytest.mark.parametrize("dtype, value, error, message", BAD_VALUES, ids=lambda v: str(v)[:20])
def test_program_refuses_a_value_that_does_not_fit(cache, dtype, value, error, message):
    program = Program(scalar_call(param(0, dtype) + param(0, dtype), dtype))
    with pytest.raises(error, match=f"f: argument 0: {message}"):
        program(value)
    with pytest.raises(error, match=f"copyin: element 1: {message}"):
        Buffer(dtype, 2).copyin([0, value])


# issue 31: a bool took any object (bool(value)): "false" ran as True, None as False
BAD_BOOLS = [
    ("false", TypeError, "a bool wants True, False, 0 or 1, got str"),
    (None, TypeError, "a bool wants True, False, 0 or 1, got NoneType"),
    ([0], TypeError, "a bool wants True, False, 0 or 1, got list"),
    (0.0, TypeError, "a bool wants True, False, 0 or 1, got float"),
    (2, ValueError, "2 is not a bool"),
    (-1, ValueError, "-1 is not a bool"),
]


@needs_clang
@pytest.mark.parametrize("value, error, message", BAD_BOOLS, ids=repr)
def test_a_bool_argument_is_a_bool(cache, value, error, message):
    program = Program(scalar_call(param(1, BOOL), I32, BOOL))
    with pytest.raises(error, match=f"f: argument 1: {message}"):
        program(0, value)
    with pytest.raises(error, match=f"copyin: element 2: {message}"):
        Buffer(BOOL, 3).copyin([True, 0, value])


@needs_clang
def test_a_bool_argument_takes_true_false_0_and_1(cache):
    program = Program(scalar_call(param(0, BOOL), BOOL))
    assert [program(v) for v in (True, False, 1, 0)] == [True, False, True, False]
    assert Buffer(BOOL, 4).copyin([True, False, 1, 0]).tolist() == [True, False, True, False]


@needs_clang
@pytest.mark.parametrize(
    "dtype, value, expected",
    [(I32, INT_MAX, -2), (I32, True, 2), (F32, 16777217, 33554432.0), (F32, 2**200, math.inf)],
    ids=str,
)
def test_program_agrees_with_the_interpreter_on_values_that_fit(cache, dtype, value, expected):
    body = param(0, dtype) + param(0, dtype)
    assert Program(scalar_call(body, dtype))(value) == expected == evaluate(body, {0: value})


@needs_clang
def test_a_float_argument_reaches_c_rounded_as_f32_rounds_it(cache):
    """A Python float goes to C as it is, and C's conversion must round it as f32 does."""
    identity = Program(scalar_call(param(0, F32), F32))
    payload = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000123))[0]
    values = [
        16777217.0, 0.1, -0.0, 1e300, -1e300, 1e-50, -1e-50, payload,
        3.4028235677973366e38,  # halfway between the largest float32 and 2**128: to infinity
        3.4028235677973362e38,  # just below halfway: to the largest float32
        2.0**-150, 1.5 * 2.0**-150, -(2.0**-150),  # around half the smallest subnormal
    ]  # fmt: skip
    for value in values:
        assert same(identity(value), f32(value)), value


def two_scratch_arrays(size: int) -> UOp:
    """A call that writes element 0 of two scratch arrays of `size` floats and adds them."""
    x = param(0, F32)
    reads = []
    for slot in (1, 2):
        scratch = UOp(Ops.ALLOC, (), ParamArg(slot, Ptr(F32, size)))
        reads.append(load(UOp(Ops.AFTER, (scratch, store(scratch, 0, x))), 0))
    return scalar_call(reads[0] + reads[1], F32)


def test_scratch_over_the_total_limit_is_refused():
    """Each array alone is within the limit of one array; together they are not."""
    half = runtime.MAX_ELEMENTS // 2
    two_scratch_arrays(half)  # exactly the limit is allowed
    with pytest.raises(UOpError, match=f"CALL: its scratch arrays hold {2 * half + 2:,} elements"):
        two_scratch_arrays(half + 1)


@pytest.mark.parametrize("dtype", [BOOL, F32, Ptr(F32, 4)], ids=["bool", "f32", "pointer"])
@pytest.mark.parametrize("bounds", [(0, None), (None, 1), (0, 1)])
def test_bounds_mean_something_only_on_an_i32(dtype, bounds):
    op = Ops.ALLOC if isinstance(dtype, Ptr) else Ops.PARAM
    with pytest.raises(UOpError, match=f"min and max apply only to an i32 parameter, not {dtype}"):
        UOp(op, (), ParamArg(0, dtype, *bounds))


def test_appendix_c_states_the_limits_and_their_defaults():
    """The limits and their names are documented where a reader looks for them (appendix C)."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "back" / "c-commands.md").read_text()
    section = page[page.index("{#compile-limits}") :]
    for text in (
        f"`UOPC_MAX_C_LINES` | {runtime.MAX_C_LINES:,} (`MAX_C_LINES`",
        f"`UOPC_COMPILE_TIMEOUT` | {runtime.COMPILE_SECONDS:g} (`COMPILE_SECONDS`)",
        f"at most {MAX_QUOTE} characters of the program's text (`MAX_QUOTE`",
        "at most 2^{{ n.max_scratch_elements_log2 }}^",  # the key make_numbers.py reads
    ):
        assert text in section, text
    assert "(`MAX_SCRATCH_ELEMENTS`" in section


@pytest.mark.parametrize("count, refused", [(1024, False), (1025, True)])
def test_ctypes_argument_limit_is_refused_before_clang(cache, monkeypatch, count, refused):
    # issue 31: past 1,024 arguments ctypes failed at the call with its own ArgumentError
    monkeypatch.setattr(runtime, "compile_c", lambda src: (_ for _ in ()).throw(OSError("built")))
    call = UOp(Ops.CALL, (param(0, I32),) + (UOp.const(1),) * count, CallArg("wide"))
    message = "wide takes 1,025 arguments, above the limit of 1,024 that ctypes can pass to C"
    with pytest.raises(ValueError if refused else OSError, match=message if refused else "built"):
        Program(call)
