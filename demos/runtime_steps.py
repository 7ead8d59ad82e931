"""From C text to a called function: the runtime's steps, its cache rules and its refusals
(Chapter 13).

    python demos/runtime_steps.py

Three quoted blocks, each after a marker line `@@ block NAME` that the book build strips:

- steps: relu(x, y) = max(x*y + 1.0, 0.0) followed through `uopc.runtime` in a new, empty
  cache: the C, the key, the files written (each through a temporary name and a rename), the
  ctypes types, the call, and a second Program that finds the library in the cache;
- cache: the cache's rules as built: a private folder, a folder others may write refused, and a
  library cut short, replaced or missing its record rebuilt instead of loaded;
- failures: what can go wrong between C text and a call, and the one-line message each gets.

Paths are printed relative to the demo's own folders (`<cache>`, `<tools>`) and the key as
`<key>`, so the output is the same on every run; the lines that quote the key itself, clang's
own words or a time end in `(this machine)`. A printed claim that turns out false makes the
program exit with a non-zero status.
"""

from _common import MACHINE, block, claim, finish, param, state

import os
import re
import shutil
import stat
import sys
import tempfile
import textwrap

from uopc import F32, I32, CallArg, Ops, ParamArg, Ptr, UOp, UOpError, runtime
from uopc.interp import evaluate
from uopc.render import render
from uopc.runtime import Buffer, CacheError, CompilerError, Program, compile_c
from verify.generators import buffer, load, ptr_param, store  # noqa: E402  (after _common)

NAMES: dict[str, str] = {}  # a real path or key -> how the output spells it
TEMPORARY: list[str] = []  # the folders this demo made, removed at the end
WIDTH = 92  # a message longer than this is wrapped onto indented lines, to fit the page


def made_folder(prefix: str) -> str:
    folder = tempfile.mkdtemp(prefix=prefix)
    TEMPORARY.append(folder)
    return folder


def shown(text: str) -> str:
    """text with the demo's folders and keys replaced by their stable names."""
    for real, name in sorted(NAMES.items(), key=lambda item: -len(item[0])):
        text = text.replace(real, name)
    text = re.sub(r"\b[0-9a-f]{24}\b", "<key>", text)  # a key the demo did not name
    # a temporary's writer (host hash and pid) and random letters change from run to run
    return re.sub(r"<key>\.(?:[0-9a-f]{8}-[0-9]+\.)?\w+\.(so\.tmp|tmp)", r"<key>.<random>.\1", text)


def relu_call(name: str = "relu") -> UOp:
    x, y = param(0, F32), param(1, F32)
    body = (x * y + 1.0).max(0.0)
    return UOp(Ops.CALL, (body, UOp.const(0.0), UOp.const(0.0)), CallArg(name))


def new_cache() -> str:
    """A new, empty cache folder for what follows (it does not exist yet: open_cache makes it)."""
    folder = os.path.join(made_folder("uopc-demo-"), "cache")
    NAMES[folder] = "<cache>"
    runtime.CACHE_DIR = folder
    return folder


def listing(folder: str) -> str:
    return ", ".join(shown(name) for name in sorted(os.listdir(folder)))


def one_line(error: Exception) -> str:
    return f"{type(error).__name__}: {shown(str(error))}"


def attempt(action) -> Exception | None:
    try:
        action()
    except Exception as error:  # the message is what this demo shows
        return error
    return None


# ---------------------------------------------------------------------------------------------
# the steps
# ---------------------------------------------------------------------------------------------


def traced_replace(log: list[str]):
    """os.replace that also notes each rename, so the steps can show the atomic writes."""
    real = os.replace

    def replace(source, target):
        log.append(
            f"renamed {shown(os.path.basename(source))} -> {shown(os.path.basename(target))}"
        )
        return real(source, target)

    return real, replace


def show_steps():
    block("steps")
    folder = new_cache()
    call = relu_call()
    source = render(call)
    lines = source.count("\n")
    signature = next(line for line in source.splitlines() if line.startswith("float relu("))
    print("relu(x, y) = max(x*y + 1.0, 0.0), from C text to a called function, in a new cache")
    print(f"1 render: {lines} lines of C, the prelude and then the function, which begins")
    print(f"    {signature}")
    key = runtime.cache_key(source, runtime.CC, runtime.CFLAGS)
    NAMES[key] = "<key>"
    print(f"2 key: sha256 of compiler, version, {len(runtime.CFLAGS)} flags and the source,")
    print(f"  its first {len(key)} hex digits: {key}  {MACHINE}")
    library = os.path.join(folder, f"{key}.so")
    print(f"3 look: {shown(library)} exists: {os.path.exists(library)}")
    log: list[str] = []
    real, runtime.os.replace = traced_replace(log)
    try:
        before = dict(runtime.STATS)
        program = Program(call)
    finally:
        runtime.os.replace = real
    print("4 build: each file is written under a fresh name, then renamed onto its own")
    for line in log:
        print(f"    {line}")
    print(f"  the cache now holds: {listing(folder)}")
    print(f"5 load: ctypes.CDLL opens {shown(program.lib._name)}; the symbol relu")
    argtypes = ", ".join(t.__name__ for t in program.fn.argtypes)
    print(f"6 bind: argtypes [{argtypes}], restype {program.fn.restype.__name__}")
    pairs = [(2.0, 3.0), (-2.0, 3.0)]
    body = call.src[0]
    results = [(program(x, y), evaluate(body, {0: x, 1: y})) for x, y in pairs]
    shown_results = ", ".join(
        f"relu{pair} = {c}" for pair, (c, _) in zip(pairs, results, strict=True)
    )
    print(f"7 call: {shown_results}; the interpreter agrees")
    claim(all(c == i for c, i in results), "the compiled relu agrees with the interpreter")
    compiles = runtime.STATS["compiles"] - before["compiles"]
    again = Program(call)
    hits = runtime.STATS["hits"] - before["hits"]
    print(f"a second Program for the same call: compiles {compiles}, hits {hits}")
    claim((compiles, hits) == (1, 1), "one compile, then one hit")
    claim(again(2.0, 3.0) == 7.0, "the cached library runs")
    files = sorted(os.listdir(folder))
    claim(files == [f"{key}.c", f"{key}.so", f"{key}.so.sha256"], "the three cache files")
    claim(len(log) == 3, "three renames: source, library, record")
    state("runtime_relu_c_lines", lines, "lines of C rendered for relu, prelude included")
    state("runtime_flag_count", len(runtime.CFLAGS), "flags the runtime passes to clang")
    state("runtime_key_digits", len(key), "hex digits of the sha256 kept as the library's name")
    state("runtime_key_bits", 4 * len(key), "bits of the sha256 that those hex digits keep")
    state("runtime_cache_files", len(files), "files one compiled call leaves in the cache")
    state("runtime_renames", len(log), "renames that put one compiled call's files in place")


# ---------------------------------------------------------------------------------------------
# the cache's rules
# ---------------------------------------------------------------------------------------------


def rebuilt_after(name: str, damage, what: str) -> bool:
    """Compile a relu named `name`, damage its library before anything loads it, then build
    the call: rebuilt (one compile) and right? (A library this process has loaded is never
    damaged here: writing into a mapped file changes the code under the running process.)"""
    call = relu_call(name)
    library = compile_c(render(call))
    damage(library)
    trusted = runtime.cached_library(library)
    before = runtime.STATS["compiles"]
    value = Program(call)(2.0, 3.0)
    compiles = runtime.STATS["compiles"] - before
    print(f"  {what:<28} trusted {trusted}; compiles {compiles}, {name}(2.0, 3.0) = {value}")
    return not trusted and compiles == 1 and value == 7.0


def truncate(library: str) -> None:
    with open(library, "r+b") as file:
        file.truncate(100)


def replace_with_other(library: str) -> None:
    other = compile_c("float relu_b(float x, float y) { return 99.0f; }\n")
    shutil.copyfile(other, library)


def drop_record(library: str) -> None:
    os.remove(library + ".sha256")


def show_cache():
    block("cache")
    folder = new_cache()
    call = relu_call()
    compile_c(render(call))
    mode = stat.S_IMODE(os.stat(folder).st_mode)
    print(f"a new cache folder is made with mode {mode:o}: only its owner may enter or write it")
    claim(mode == 0o700, "the new cache is private")
    shared = os.path.join(os.path.dirname(folder), "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o777)
    NAMES[shared] = "<shared>"
    runtime.CACHE_DIR = shared
    refused = attempt(lambda: Program(call))
    runtime.CACHE_DIR = folder
    print("a folder that others may write is refused, before anything is loaded from it:")
    print(textwrap.fill(one_line(refused), WIDTH, initial_indent="  ", subsequent_indent="    "))
    claim(isinstance(refused, CacheError), "a shared folder is refused")
    print("a library is loaded only if its sha256 matches the record made after its build;")
    cases = [
        ("relu_a", truncate, "cut to 100 bytes"),
        ("relu_b", replace_with_other, "another library in its place"),
        ("relu_c", drop_record, "its .sha256 record missing"),
    ]
    print(f"{len(cases)} damaged libraries, each then asked for by a Program:")
    kept = [rebuilt_after(*case) for case in cases]
    claim(all(kept), "every damaged library is rebuilt and the answer is right")
    leftovers = [name for name in os.listdir(folder) if "tmp" in name]
    print(f"temporary files left in the cache: {len(leftovers)}")
    claim(leftovers == [], "no temporary file is left")
    state("runtime_damage_cases", len(cases), "kinds of damaged cache entry the demo tries")
    state("runtime_damage_rebuilt", sum(kept), "of them, rebuilt with the right answer")


# ---------------------------------------------------------------------------------------------
# what can go wrong
# ---------------------------------------------------------------------------------------------


def fake_compiler(folder: str, name: str, script: str, mode: int) -> str:
    path = os.path.join(folder, name)
    with open(path, "w", encoding="ascii") as file:
        file.write(script)
    os.chmod(path, mode)
    return path


SLOW = '#!/bin/sh\nif [ "$1" = --version ]; then echo "slow-cc 1"; exit 0; fi\nsleep 60\n'


class Setting:
    """Set module attributes and environment variables for one case, then put them back."""

    def __init__(self, attributes: dict, environment: dict):
        self.attributes, self.environment = attributes, environment

    def __enter__(self):
        self.saved = {name: getattr(runtime, name) for name in self.attributes}
        self.saved_env = {name: os.environ.get(name) for name in self.environment}
        for name, value in self.attributes.items():
            setattr(runtime, name, value)
        os.environ.update(self.environment)

    def __exit__(self, *exc):
        for name, value in self.saved.items():
            setattr(runtime, name, value)
        for name, value in self.saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def memory_call() -> UOp:
    """b[0] = a[0] + 1 over two f32 buffers of 2 elements."""
    a, b = ptr_param(0, 2), ptr_param(1, 2)
    body = UOp.sink(store(b, 0, load(a, 0) + 1.0))
    return UOp(Ops.CALL, (body, buffer(0, 2), buffer(1, 2)), CallArg("bump"))


def scratch_call(size: int) -> UOp:
    """Two scratch arrays of `size` floats each, written and read once."""
    x = param(0, F32)
    reads = []
    for slot in (1, 2):
        scratch = UOp(Ops.ALLOC, (), ParamArg(slot, Ptr(F32, size)))
        reads.append(load(UOp(Ops.AFTER, (scratch, store(scratch, 0, x))), 0))
    return UOp(Ops.CALL, (reads[0] + reads[1], UOp.const(0.0)), CallArg("scratch"))


def failure_cases(tools: str) -> list:
    """(what went wrong, action, expected exception type, settings, machine-dependent)."""
    x = param(0, I32)
    twice = Program(UOp(Ops.CALL, (x + x, UOp.const(0)), CallArg("twice")))
    divisor = param(1, I32, 1, 10)
    quotient = Program(UOp(Ops.CALL, (x // divisor, UOp.const(0), UOp.const(1)), CallArg("q")))
    bump = Program(memory_call())
    shared = Buffer(F32, 2).copyin([1.0, 2.0])
    slow = fake_compiler(tools, "slow-cc", SLOW, 0o755)
    text = fake_compiler(tools, "notes-cc", "these are notes, not a program\n", 0o644)
    half = runtime.MAX_ELEMENTS // 2
    return [
        (
            "the C does not compile",
            lambda: compile_c("int broken(void) { return undefined_name; }\n"),
            RuntimeError,
            ({}, {}),
            True,
        ),
        (
            "no compiler by that name",
            lambda: Program(relu_call()),
            FileNotFoundError,
            ({"CC": "no-such-cc"}, {}),
            False,
        ),
        (
            "the compiler is not a program",
            lambda: Program(relu_call()),
            CompilerError,
            ({"CC": text}, {}),
            False,
        ),
        (
            "the C is over the size limit",
            lambda: Program(relu_call()),
            CompilerError,
            ({}, {"UOPC_MAX_C_LINES": "20"}),
            False,
        ),
        (
            "the compiler runs past its time",
            lambda: Program(relu_call()),
            CompilerError,
            ({"CC": slow}, {"UOPC_COMPILE_TIMEOUT": "0.5"}),
            False,
        ),
        ("one buffer passed twice", lambda: bump(shared, shared), ValueError, ({}, {}), False),
        ("an i32 that does not fit", lambda: twice(2**32 + 5), ValueError, ({}, {}), False),
        ("outside a declared range", lambda: quotient(7, 0), ValueError, ({}, {}), False),
        ("too much scratch in one call", lambda: scratch_call(half + 1), UOpError, ({}, {}), False),
    ]


def show_failures():
    block("failures")
    tools = made_folder("uopc-tools-")
    NAMES[tools] = "<tools>"
    new_cache()
    cases = failure_cases(tools)
    print("what went wrong, then the line it gets (wrapped here to fit the page)")
    for what, action, expected, (attributes, environment), machine in cases:
        with Setting(attributes, environment):
            error = attempt(action)
        claim(isinstance(error, expected), f"{what}: {error!r}")
        first, *rest = one_line(error).splitlines() if error else ["no error"]
        print(f"- {what}:")
        print(textwrap.fill(first, WIDTH, initial_indent="    ", subsequent_indent="      "))
        if machine and rest:  # clang's own words follow on the next line
            print(f"    {rest[0]}  {MACHINE}")
    claim(runtime.CC == "clang" and "UOPC_MAX_C_LINES" not in os.environ, "settings restored")
    state("runtime_failure_cases", len(cases), "kinds of failure the demo triggers")
    state("runtime_max_c_lines", runtime.MAX_C_LINES, "lines of C compiled at most, by default")
    block_lines, seconds = 1000, runtime.COMPILE_SECONDS
    grows = [runtime.compile_timeout(block_lines * k) == k * seconds for k in (1, 2, 4)]
    claim(all(grows) and runtime.compile_timeout(1) == seconds, "the timeout's rule")
    state("runtime_compile_seconds", f"{seconds:g}", "seconds clang may take per block, at least")
    state("runtime_timeout_lines", block_lines, "lines of C in one block of the timeout")


def main() -> int:
    saved = runtime.CACHE_DIR
    try:
        show_steps()
        show_cache()
        show_failures()
    finally:
        runtime.CACHE_DIR = saved
        for folder in TEMPORARY:
            shutil.rmtree(folder, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
