"""Compiling with clang, the cache of shared libraries, and calling them through ctypes.

Relies on `render` for the C, on `uop` for the call's arguments and on clang (or any compiler that
takes the same flags). Invariants: a cached library is found only under a key made from the
compiler, its version, the flags and the source, so a stale library is never loaded; a library
appears in the cache only complete (written under a fresh temporary name, then renamed), and is
loaded only when its SHA-256 matches the one recorded after its build; the cache folder is the
user's own and nobody else can write it; a call never runs with one buffer passed twice unless
the caller asked for it, nor with an integer outside the range its parameter declares, nor
with a value that does not fit its parameter's dtype; a source over MAX_C_LINES never reaches
the compiler, and a compiler still running after its time, or when Ctrl-C or SIGTERM stops
Python while it compiles (in the main thread), is stopped, with its children; a temporary
whose writer is gone is removed when the next compile starts.
"""

import ctypes
import functools
import hashlib
import numbers
import operator
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time

from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VOID, Ptr
from .ops import Ops
from .ranges import param_bounds
from .render import render
from .semantics import f32
from .textfmt import MAX_ELEMENTS
from .uop import UOp

CC = "clang"
# -fwrapv: int overflow wraps; -ffp-contract=off: no fused multiply-add (one rounding, not two);
# -fno-fast-math: no value-changing float rewrites. No -march=native: the cache may be shared.
# Float max is rendered so that clang cannot fold nested ones (render.py, `_max`), not by
# -ffp-exception-behavior=maytrap, which also stopped the loop vectoriser.
CFLAGS = ["-O2", "-fwrapv", "-ffp-contract=off", "-fno-fast-math", "-std=c11", "-shared", "-fPIC"]


def default_cache_dir() -> str:
    """`$UOPC_CACHE`, else `uopc` under the user's own cache folder (`$XDG_CACHE_HOME` or
    `~/.cache`): never a folder shared by every user, where anyone could plant a library."""
    if os.environ.get("UOPC_CACHE"):
        return os.path.abspath(os.environ["UOPC_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative setting is ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "uopc")


CACHE_DIR = default_cache_dir()

# clang's time at -O2 grows more than in proportion to the function's length: COMPILE_GROWTH
# is what demos/bench_compile.py measured (appendix D), and demos/bench.py fails when its run
# measures otherwise. So the size is refused before clang starts, and a compile that runs on
# is stopped. Both are read from the environment at every compile.
COMPILE_GROWTH = "more than linearly"  # bench_numbers.shape's words for the measured growth
MAX_C_LINES = 20_000  # lines of C, the prelude's included; UOPC_MAX_C_LINES overrides
# per 1,000 lines, and at least this much; UOPC_COMPILE_TIMEOUT overrides. The bound is for a
# compiler that never returns, not for a slow one: a sanitizer build of 3,500 lines took 35 s on
# the book's busy two-core machine, so a tight bound would stop honest work.
COMPILE_SECONDS = 60.0
STATS = {"compiles": 0, "hits": 0, "compile_seconds": 0.0}
CTYPE = {BOOL: ctypes.c_bool, I32: ctypes.c_int32, F32: ctypes.c_float}


def ctype_of(dtype):
    """The ctypes type of a value dtype, or a ctypes pointer to the element type of a `Ptr`."""
    if isinstance(dtype, Ptr):
        return ctypes.POINTER(CTYPE[dtype.base])
    return CTYPE[dtype]


class CompilerError(RuntimeError):
    """The compiler could not be used on this source: over the size limit, stopped after its
    time, or not a program. Unlike `<cc> failed:`, the message is one line and says it all."""


def setting(name: str, default: float, kind=int):
    """A positive number from the environment variable `name`, else `default`."""
    text = os.environ.get(name, "")
    if not text:
        return default
    try:
        value = kind(text)
    except ValueError:
        value = 0
    if not value > 0 or value == float("inf"):  # also nan, which compares false
        raise ValueError(f"{name} must be a positive number, got {text[:40]!r}")
    return value


def compile_timeout(lines: int) -> float:
    """Seconds clang may take on a source of `lines` lines: COMPILE_SECONDS per 1,000 lines,
    and never less than COMPILE_SECONDS (which the version query gets too)."""
    per_thousand = setting("UOPC_COMPILE_TIMEOUT", COMPILE_SECONDS, float)
    return per_thousand * max(1.0, lines / 1000)


def check_size(src: str) -> int:
    """The number of lines of src, refused before clang starts when above the limit."""
    lines = src.count("\n") + (0 if src.endswith("\n") or not src else 1)
    limit = setting("UOPC_MAX_C_LINES", MAX_C_LINES)
    if lines > limit:
        raise CompilerError(
            f"the C source has {lines:,} lines, above the limit of {limit:,} "
            f"(set UOPC_MAX_C_LINES to raise it; clang's time grows {COMPILE_GROWTH} "
            "with the length)"
        )
    return lines


def run_compiler(command: list[str], timeout: float) -> subprocess.CompletedProcess:
    """Run the compiler in a process group of its own, all of which is killed after `timeout`
    seconds, or when Ctrl-C or SIGTERM stops us: killing clang's driver alone would leave its
    cc1 holding the output pipes."""
    with _StopSignals() as stop:
        process = _start(command)
        with process:
            try:
                stop.arm()  # a signal held while the compiler started is raised now
                out, err = process.communicate(timeout=timeout)
            except BaseException as error:  # the timeout, Ctrl-C or SIGTERM: none left running
                _kill_group(process)
                if isinstance(error, subprocess.TimeoutExpired):
                    raise CompilerError(
                        f"{command[0]} was stopped after {timeout:g} s, its time limit "
                        "(UOPC_COMPILE_TIMEOUT sets the seconds per 1,000 lines of C)"
                    ) from None
                raise
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def _start(command: list[str]) -> subprocess.Popen:
    try:
        return subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True,
        )  # fmt: skip
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{command[0]} not found: install it (Debian: apt-get install clang) "
            "or set uopc.runtime.CC"
        ) from None
    except OSError as error:  # a file that is not a program, or one we may not run
        raise CompilerError(
            f"the compiler {command[0]} cannot be run: {error.strerror or error}"
        ) from None


class _StopSignals:
    """Ctrl-C and SIGTERM while the compiler starts or runs. The compiler has a session of its
    own, so no signal to us reaches it: only code of ours that runs can kill its group (and
    _build's `finally` remove its temporary). So SIGTERM, which would end Python at once,
    raises SystemExit(143) instead, the status a shell reports for a process it ended; and a
    signal that comes while Popen starts the compiler, with no process yet to kill, is held
    until `arm`. Only in the main thread (the only one Python lets set a handler), and only
    over Python's own handlers, never over one the program chose."""

    DEFAULTS = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}

    def __enter__(self):
        self.armed, self.held, self.replaced = False, None, {}
        if threading.current_thread() is threading.main_thread():
            for signum, default in self.DEFAULTS.items():
                if signal.getsignal(signum) is default:
                    self.replaced[signum] = signal.signal(signum, self.handle)
        return self

    def handle(self, signum, frame):
        if self.armed:
            _stop(signum)
        if self.held is None:
            self.held = signum

    def arm(self):
        self.armed = True
        if self.held is not None:
            _stop(self.held)

    def __exit__(self, *exc_info):
        for signum, previous in self.replaced.items():
            signal.signal(signum, previous)


def _stop(signum: int):
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise SystemExit(128 + signum)


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:  # every member already gone
        pass
    process.communicate()  # reap it, and read the pipes to their end


@functools.cache
def compiler_version(cc: str) -> str:
    """The first line of `<cc> --version`, asked once per process (it is part of every key)."""
    done = run_compiler([cc, "--version"], compile_timeout(0))
    return (done.stdout or done.stderr).split("\n", 1)[0]


def cache_key(src: str, cc: str, flags: list[str]) -> str:
    """First 24 hex digits of the SHA-256 of compiler, version, flags and source, NUL-joined."""
    text = "\0".join([cc, compiler_version(cc), *flags, src])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


class CacheError(OSError):
    """The cache directory cannot be used: missing and not creatable, or not safe to trust."""


def open_cache(directory: str) -> str:
    """Create the cache directory (mode 0700) if needed and check that only we can write it.

    A library in the cache is loaded into this process, so a directory another user can write
    to (or that another user owns) would let them run code here: it is refused, not repaired.
    """
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        status = os.stat(directory)
    except OSError as error:  # a file in the way, no permission, a read-only disk
        raise CacheError(f"cache directory {directory}: {error.strerror or error}") from None
    if not stat.S_ISDIR(status.st_mode):
        raise CacheError(f"cache directory {directory}: not a directory")
    if status.st_uid != os.geteuid():
        raise CacheError(f"cache directory {directory} belongs to another user; set UOPC_CACHE")
    if status.st_mode & 0o022:
        raise CacheError(
            f"cache directory {directory} is writable by other users "
            f"(mode {stat.S_IMODE(status.st_mode):o}); set UOPC_CACHE or chmod go-w it"
        )
    return directory


# A temporary's name says who writes it: `{key}.{host}-{pid}.{random}{suffix}`, where host is a
# hash of this machine's name (a cache in a shared home folder may be written from several).
HOST = hashlib.sha256(os.uname().nodename.encode("utf-8", "replace")).hexdigest()[:8]
TEMPORARY = re.compile(r"[0-9a-f]{24}\.(?:([0-9a-f]{8})-([0-9]+)\.)?[a-z0-9_]+(?:\.so)?\.tmp")
# A temporary this old is left over whatever its name says: longer than any compile the
# default limits allow (20,000 lines at 60 s per 1,000 lines is 20 minutes).
STALE_SECONDS = 24 * 3600


def _temporary(directory: str, key: str, suffix: str) -> tuple[int, str]:
    """A fresh, empty file only this call knows, open for writing: created with O_EXCL (never
    through a link someone left under a guessable name), unique across processes and threads."""
    return tempfile.mkstemp(prefix=f"{key}.{HOST}-{os.getpid()}.", suffix=suffix, dir=directory)


def _writer_gone(host: str | None, pid: str | None) -> bool:
    """True when the temporary's writer is a process of this machine that no longer runs."""
    if host != HOST or pid is None:
        return False  # another machine's pid, or a name from before pids: its age decides
    try:
        os.kill(int(pid), 0)  # signal 0: asks whether the process exists, sends nothing
    except ProcessLookupError:
        return True
    except (OSError, OverflowError, ValueError):  # another user's process, or not a pid
        return False
    return False


def remove_stale_temporaries(directory: str) -> None:
    """Remove the temporaries that no compile will finish: their writer's pid on this machine
    is gone (a compile killed by SIGKILL), or they are older than STALE_SECONDS. A live
    writer's file (this process's other threads included) stays. Best effort: a file another
    process removes first, or one we may not remove, is left to it."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        found = TEMPORARY.fullmatch(entry.name)
        if found is None or not entry.is_file(follow_symlinks=False):
            continue
        try:
            old = time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS
            if old or _writer_gone(*found.groups()):
                os.remove(entry.path)
        except OSError:
            pass


def _write_atomically(path: str, data: bytes, directory: str, key: str) -> None:
    """Write data under a temporary name, then rename it onto path: readers see all or none."""
    handle, temporary = _temporary(directory, key, ".tmp")
    try:
        with open(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    finally:  # a full disk or any other failure leaves no temporary behind
        if os.path.lexists(temporary):
            os.remove(temporary)


def _digest(path: str) -> str | None:
    """The sha256 of the file at path (never followed through a link), or None if unreadable."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with open(handle, "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()
    except OSError:  # missing, a directory, a link, no permission
        return None


def _read_text(path: str) -> str | None:
    try:
        with open(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), encoding="ascii") as file:
            return file.read().strip()
    except (OSError, UnicodeDecodeError):
        return None


def cached_library(library: str) -> bool:
    """True when the library is the one built for its key: its sha256 matches the sidecar
    written after the build. A truncated, flipped, planted or replaced library fails this."""
    recorded = _read_text(library + ".sha256")
    return recorded is not None and recorded == _digest(library)


def _clear_directory(path: str) -> None:
    """A directory where a library belongs would stop the rename; a file or a link would not."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)


# --8<-- [start:compile_c]
def compile_c(src: str, cc: str | None = None, flags: list[str] | None = None) -> str:
    """The path of a shared library built from src, compiled now or found in the cache."""
    cc = CC if cc is None else cc  # read at call time, so that setting runtime.CC takes effect
    flags = CFLAGS if flags is None else flags
    timeout = compile_timeout(check_size(src))  # before the key: the version query runs cc
    key = cache_key(src, cc, flags)
    directory = open_cache(CACHE_DIR)
    library = os.path.join(directory, f"{key}.so")
    if cached_library(library):  # checked before every load, not only the first
        STATS["hits"] += 1
        return library
    source = os.path.join(directory, f"{key}.c")
    remove_stale_temporaries(directory)
    try:
        _write_atomically(source, src.encode("utf-8"), directory, key)  # kept: errors point here
        start = time.perf_counter()
        _build(cc, flags, source, library, directory, key, timeout)
    except OSError as error:
        raise CacheError(f"cache directory {directory}: {error.strerror or error}") from None
    STATS["compiles"] += 1
    STATS["compile_seconds"] += time.perf_counter() - start
    return library


# --8<-- [end:compile_c]


# --8<-- [start:build]
def _build(cc, flags, source: str, library: str, directory: str, key: str, timeout: float):
    """Compile into a temporary file, rename it onto the library, then record its sha256."""
    handle, temporary = _temporary(directory, key, ".so.tmp")
    os.close(handle)  # the compiler writes it by name
    try:
        done = run_compiler([cc, *flags, source, "-o", temporary, "-lm"], timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{cc} failed:\n{done.stderr}")
        digest = _digest(temporary)
        _clear_directory(library)
        os.replace(temporary, library)  # atomic: another process sees no library or all of it
    finally:
        if os.path.lexists(temporary):
            os.remove(temporary)
    # written last: a library without its sidecar (a build cut short) is rebuilt, never loaded
    _write_atomically(library + ".sha256", f"{digest}\n".encode("ascii"), directory, key)


# --8<-- [end:build]


def _shown(number: int) -> str:
    # str() of an int of more than 4,300 digits raises; a message never needs them all
    return str(number) if number.bit_length() <= 128 else f"an int of {number.bit_length()} bits"


def _i32_value(value) -> int:
    if type(value) is int and INT_MIN <= value <= INT_MAX:
        return value  # the common case first: a call is often one of millions
    number = operator.index(value)  # an int or a bool; a float is a TypeError, not truncated
    if not INT_MIN <= number <= INT_MAX:  # ctypes would wrap it: 2**32 + 5 became 5
        raise ValueError(f"{_shown(number)} does not fit in int32")
    return number


def _f32_value(value) -> float:
    if type(value) is float:
        return value  # C's conversion to float rounds it as f32 does (IEEE 754, to nearest)
    if not isinstance(value, numbers.Real):  # ctypes refuses a str; say so in our words
        raise TypeError(f"an f32 wants a real number, got {type(value).__name__}")
    try:
        return f32(float(value))  # rounded as the interpreter rounds it, not by C's cast
    except OverflowError:  # an int beyond any double
        raise ValueError(f"{_shown(operator.index(value))} does not fit in a float") from None


def _bool_value(value) -> bool:
    if type(value) is bool:
        return value
    # bool(value) took anything: "false" ran as True, None as False. As for an i32 (where a
    # bool is an int), the ints 0 and 1 stand for False and True; nothing else does.
    if not isinstance(value, numbers.Integral):
        raise TypeError(f"a bool wants True, False, 0 or 1, got {type(value).__name__}")
    if value not in (0, 1):
        raise ValueError(f"{_shown(int(value))} is not a bool (True, False, 0 or 1)")
    return bool(value)


# dtype -> the value a C function gets, checked as the interpreter checks its inputs
# (interp.NORMALISE): an int32 that fits, a float32-rounded real number, a bool (or 0 or 1).
VALUE_OF = {I32: _i32_value, F32: _f32_value, BOOL: _bool_value}


def _unchanged(value):
    return value


def c_value(dtype, value, where: str):
    """value as an argument or element of dtype, or a TypeError/ValueError naming `where`."""
    try:
        return VALUE_OF[dtype](value)
    except (TypeError, ValueError) as error:
        raise type(error)(f"{where}: {error}") from None


class Buffer:
    """A caller-owned array of `size` elements of a value dtype, zero-filled, in `arr`."""

    def __init__(self, dtype, size: int):
        if dtype not in CTYPE or not isinstance(size, int) or size <= 0:
            raise ValueError(f"Buffer needs a value dtype and a positive size, got {dtype}, {size}")
        if size > MAX_ELEMENTS:
            raise ValueError(f"Buffer of {size} elements: above the limit of {MAX_ELEMENTS}")
        self.dtype, self.size = dtype, size
        self.arr = (CTYPE[dtype] * size)()

    def copyin(self, values) -> "Buffer":
        """Fill the buffer from exactly `size` Python values; returns the buffer."""
        values = list(values)
        if len(values) != self.size:
            raise ValueError(f"copyin: got {len(values)} values for a buffer of {self.size}")
        self.arr[:] = [c_value(self.dtype, v, f"copyin: element {k}") for k, v in enumerate(values)]
        return self

    def tolist(self) -> list:
        return list(self.arr)

    def __repr__(self) -> str:
        return f"Buffer({self.dtype}, {self.size}, {self.tolist()})"


def _require_call(who: str, call) -> None:
    if not isinstance(call, UOp) or call.op is not Ops.CALL:
        got = call.op.name if isinstance(call, UOp) else type(call).__name__
        raise TypeError(f"{who} needs a CALL, got {got}")


MAX_CTYPES_ARGUMENTS = 1024  # ctypes passes at most this many arguments to a C function


def _check_argument_count(call: UOp) -> None:
    # refused before clang runs: past the limit ctypes fails only at the call, with its own error
    count = len(call.src) - 1
    if count > MAX_CTYPES_ARGUMENTS:
        raise ValueError(
            f"{call.arg.name} takes {count:,} arguments, above the limit of "
            f"{MAX_CTYPES_ARGUMENTS:,} that ctypes can pass to C "
            "(the interpreter has no such limit)"
        )


# --8<-- [start:program]
class Program:
    """A CALL rendered, compiled (or found in the cache) and loaded: call it like a function."""

    def __init__(self, call: UOp):
        _require_call("Program", call)
        _check_argument_count(call)
        self.call = call
        self.source = render(call)
        self.lib = ctypes.CDLL(compile_c(self.source))
        self.fn = self.lib[call.arg.name]  # never getattr: _handle, _FuncPtr are attributes
        self.arg_dtypes = [argument.dtype for argument in call.src[1:]]
        self.converters = [VALUE_OF.get(dtype, _unchanged) for dtype in self.arg_dtypes]
        self.fn.argtypes = [ctype_of(dtype) for dtype in self.arg_dtypes]
        body = call.src[0]
        self.fn.restype = None if body.dtype is VOID else CTYPE[body.dtype]
        self.pointers = [i for i, dtype in enumerate(self.arg_dtypes) if isinstance(dtype, Ptr)]
        self.ranges = declared_ranges(body)

    def __call__(self, *args, allow_alias: bool = False):
        """Scalars are checked, each Buffer passed as its array; the result as a Python value."""
        if len(args) != len(self.arg_dtypes):
            raise TypeError(
                f"{self.call.arg.name} takes {len(self.arg_dtypes)} arguments, got {len(args)}"
            )
        args = self._values(args)  # each must fit its dtype: ctypes would wrap an i32
        if self.ranges:
            _check_ranges(self.call.arg.name, args, self.ranges)
        if not self.pointers:
            return self.fn(*args)  # the common scalar case stays one ctypes call
        for position in self.pointers:
            args[position] = self._array(position, args[position])
        if not allow_alias:
            _refuse_alias(args, self.pointers)
        return self.fn(*args)

    # --8<-- [end:program]

    def _values(self, args) -> list:
        try:  # one pass in the common case, where every value fits
            return [convert(value) for convert, value in zip(self.converters, args, strict=True)]
        except (TypeError, ValueError):  # again, to say which argument and why
            return [self._value(position, value) for position, value in enumerate(args)]

    def _value(self, position: int, value):
        dtype = self.arg_dtypes[position]
        if isinstance(dtype, Ptr):
            return value  # a Buffer, checked by _array
        return c_value(dtype, value, f"{self.call.arg.name}: argument {position}")

    def _array(self, position: int, buffer):
        wanted = self.arg_dtypes[position]
        if not isinstance(buffer, Buffer):
            raise TypeError(f"argument {position} must be a Buffer, got {type(buffer).__name__}")
        if buffer.dtype is not wanted.base or buffer.size != wanted.size:
            raise ValueError(
                f"argument {position} is a buffer of {buffer.size} {buffer.dtype}, "
                f"the call wants {wanted}"
            )
        return buffer.arr


def declared_ranges(body: UOp) -> list[tuple[int, int, int]]:
    """(slot, low, high) for every i32 PARAM that declares a min or a max. The simplifier and
    the renderer relied on them (a divisor in [1, 10] divides with C's plain /, which traps
    on 0), so a call outside them must be refused, not run."""
    ranges = []
    for u in body.toposort():
        if u.op is Ops.PARAM and u.dtype is I32 and (u.arg.vmin, u.arg.vmax) != (None, None):
            ranges.append((u.arg.slot, *param_bounds(u.arg)))
    return ranges


def _check_ranges(name: str, args: tuple, ranges: list) -> None:
    for slot, low, high in ranges:
        value = args[slot]
        if isinstance(value, numbers.Integral) and not low <= value <= high:
            raise ValueError(
                f"{name}: argument {slot} is {value}, outside its declared [{low}, {high}]"
            )


def _refuse_alias(arrays: list, positions: list[int]) -> None:
    # The body assumes distinct buffers (the builder orders accesses per buffer); through one
    # array passed twice a store can reach an element another argument loads, in any order.
    first_seen: dict[int, int] = {}
    for position in positions:
        earlier = first_seen.setdefault(id(arrays[position]), position)
        if earlier != position:
            raise ValueError(
                f"arguments {earlier} and {position} are the same buffer; "
                "pass allow_alias=True if that is intended"
            )


# --8<-- [start:execute]
def execute(call: UOp, buffers: dict | None = None, allow_alias: bool = False):
    """Run a call whose arguments are BUFFERs and constants.

    `buffers` maps an argument position to a Buffer or a list of values; every other BUFFER
    position gets a fresh zero-filled Buffer. Returns the value for a value body, else the list
    of Buffers by argument position (None at the constants).
    """
    _require_call("execute", call)
    buffers = {} if buffers is None else buffers
    arguments = call.src[1:]
    for position in buffers:
        if not (isinstance(position, int) and 0 <= position < len(arguments)):
            raise ValueError(f"execute: no argument at position {position!r}")
    values = [_argument(position, u, buffers) for position, u in enumerate(arguments)]
    result = Program(call)(*values, allow_alias=allow_alias)
    if call.src[0].dtype is not VOID:
        return result
    return [value if isinstance(value, Buffer) else None for value in values]


# --8<-- [end:execute]


def _argument(position: int, u: UOp, buffers: dict):
    """The value execute passes at one position: the constant, or a Buffer for a BUFFER."""
    if u.op is Ops.CONST:
        if position in buffers:
            raise ValueError(f"execute: argument {position} is a constant, not a buffer")
        return u.arg
    if u.op is not Ops.BUFFER:
        raise ValueError(f"execute: argument {position} is a {u.op.name}; only BUFFER and CONST")
    given = buffers.get(position)
    if isinstance(given, Buffer):
        return given
    fresh = Buffer(u.dtype.base, u.dtype.size)
    return fresh if given is None else fresh.copyin(given)
