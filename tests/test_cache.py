"""The compile cache against a hostile or unlucky world (issue 11): a per-user directory that
only its owner can write, libraries checked against the sha256 recorded after their build,
temporaries that no link can redirect, and threads that build the same source at once.

Every test uses its own cache directory; the attacks are the ones the issue reproduced.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import threading

import pytest

from uopc import F32, CallArg, Ops, ParamArg, UOp, runtime
from uopc.runtime import CacheError, Program, compile_c, open_cache

needs_clang = pytest.mark.skipif(shutil.which(runtime.CC) is None, reason="clang is not installed")
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory away needs root")


@pytest.fixture
def cache(monkeypatch, tmp_path):
    """An empty cache directory for one test, and STATS counted from zero."""
    monkeypatch.setattr(runtime, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(runtime, "STATS", {"compiles": 0, "hits": 0, "compile_seconds": 0.0})
    return tmp_path / "cache"


def relu_call(name="relu"):
    """max(x * y + 1, 0): the book's first program, its answer known by hand."""
    x, y = (UOp(Ops.PARAM, (), ParamArg(slot, F32)) for slot in (0, 1))
    body = (x * y + 1.0).max(UOp.const(0.0))
    return UOp(Ops.CALL, (body, UOp.const(0.0), UOp.const(0.0)), CallArg(name))


# ---------------------------------------------------------------------------------------------
# where the cache is, and who may write it
# ---------------------------------------------------------------------------------------------


def cache_dir_in(environment: dict) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("UOPC_CACHE", "XDG_CACHE_HOME")}
    code = "import uopc.runtime as r; print(r.CACHE_DIR)"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env | environment, capture_output=True, text=True
    )
    return done.stdout.strip()


@pytest.mark.parametrize(
    "environment, expected",
    [
        ({"UOPC_CACHE": "/some/where"}, "/some/where"),
        ({"XDG_CACHE_HOME": "/x/cache"}, "/x/cache/uopc"),
        ({"XDG_CACHE_HOME": "relative"}, os.path.expanduser("~/.cache/uopc")),
        ({}, os.path.expanduser("~/.cache/uopc")),
    ],
    ids=["UOPC_CACHE", "XDG_CACHE_HOME", "relative-XDG-ignored", "home"],
)
def test_cache_dir_is_per_user(environment, expected):
    assert cache_dir_in(environment) == expected
    assert not expected.startswith(tempfile.gettempdir() + "/uopc-cache")


def test_a_new_cache_is_private(tmp_path):
    directory = tmp_path / "a" / "b"
    open_cache(str(directory))
    assert directory.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("mode", [0o777, 0o775, 0o1777, 0o722])
def test_a_cache_others_can_write_is_refused(tmp_path, mode):
    directory = tmp_path / "shared"
    directory.mkdir()
    directory.chmod(mode)
    with pytest.raises(CacheError, match=r"is writable by other users \(mode \d+\)"):
        open_cache(str(directory))


@needs_root
def test_a_foreign_cache_is_refused(tmp_path):
    directory = tmp_path / "theirs"
    directory.mkdir(mode=0o700)
    os.chown(directory, 65534, 65534)  # nobody
    with pytest.raises(CacheError, match="belongs to another user"):
        open_cache(str(directory))


@needs_root
@needs_clang
def test_a_planted_library_in_a_foreign_cache_never_runs(monkeypatch, tmp_path):
    # the attack of the issue: another user owns the folder and has put a library there
    directory = tmp_path / "theirs"
    directory.mkdir(mode=0o700)
    monkeypatch.setattr(runtime, "CACHE_DIR", str(directory))
    os.chown(directory, 65534, 65534)
    with pytest.raises(CacheError):
        Program(relu_call())


@pytest.mark.parametrize("where", ["file", "below-a-file"])
def test_a_cache_path_through_a_file_is_refused(tmp_path, where):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    path = blocker if where == "file" else blocker / "cache"
    with pytest.raises(CacheError, match=f"cache directory {path}: "):
        open_cache(str(path))


# ---------------------------------------------------------------------------------------------
# a library is checked against its recorded sha256 before every load
# ---------------------------------------------------------------------------------------------


def corrupt(library: str, how: str) -> None:
    if how == "directory":
        os.remove(library)
        os.mkdir(library)
        return
    data = bytearray(open(library, "rb").read())
    if how == "flipped":
        middle = len(data) // 2  # in the code of a small library
        data[middle : middle + 4] = bytes(b ^ 0xFF for b in data[middle : middle + 4])
    else:
        data = data[: int(how)]
    with open(library, "wb") as file:
        file.write(data)


@needs_clang
@pytest.mark.parametrize("how", ["0", "100", "8000", "flipped", "directory"])
def test_a_corrupt_library_is_rebuilt(cache, how):
    call = relu_call()
    library = compile_c(runtime.render(call))
    assert os.path.exists(library + ".sha256")
    corrupt(library, how)
    assert not runtime.cached_library(library)
    assert Program(call)(2.0, 3.0) == 7.0 and Program(call)(-2.0, 3.0) == 0.0
    assert runtime.STATS["compiles"] == 2  # the first build, then one rebuild, then hits
    assert runtime.cached_library(library)


@needs_clang
def test_a_library_without_its_sidecar_is_rebuilt(cache):
    library = compile_c(runtime.render(relu_call()))
    os.remove(library + ".sha256")  # a build cut short between the rename and the record
    compile_c(runtime.render(relu_call()))
    assert runtime.STATS["compiles"] == 2 and runtime.cached_library(library)


@needs_clang
def test_a_planted_library_is_rebuilt_and_its_constructor_never_runs(cache, tmp_path):
    marker = tmp_path / "constructor-ran"
    evil = (
        "#include <stdio.h>\n"
        f'__attribute__((constructor)) static void plant(void) {{ fopen("{marker}", "w"); }}\n'
        "float relu(float x, float y) { return 99.0f; }\n"
    )
    call = relu_call()
    library = compile_c(runtime.render(call))
    shutil.copyfile(compile_c(evil), library)  # same key, another library
    assert Program(call)(2.0, 3.0) == 7.0
    assert not marker.exists()


# ---------------------------------------------------------------------------------------------
# temporaries, links, a full disk, threads
# ---------------------------------------------------------------------------------------------


@needs_clang
def test_links_under_the_old_temporary_names_are_not_followed(cache, tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    call = relu_call()
    key = runtime.cache_key(runtime.render(call), runtime.CC, runtime.CFLAGS)
    open_cache(str(cache))
    for name in [f"{key}.c.{os.getpid()}.tmp", f"{key}.so.{os.getpid()}.tmp", f"{key}.so"]:
        os.symlink(victim, cache / name)
    assert Program(call)(2.0, 3.0) == 7.0
    assert victim.read_text() == "precious\n"
    assert not os.path.islink(cache / f"{key}.so")


@needs_clang
def test_a_full_disk_leaves_no_temporary(cache, monkeypatch):
    real = tempfile.mkstemp

    def on_a_full_disk(**kwargs):
        handle, path = real(**kwargs)  # the file exists, as on a real disk ...
        os.close(handle)
        return os.open("/dev/full", os.O_WRONLY), path  # ... but every write fails

    monkeypatch.setattr(runtime.tempfile, "mkstemp", on_a_full_disk)
    with pytest.raises(CacheError, match="No space left on device"):
        compile_c(runtime.render(relu_call()))
    assert os.listdir(cache) == []


def test_an_unwritable_cache_is_one_error(cache, monkeypatch):
    def refused(**kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(runtime.tempfile, "mkstemp", refused)
    with pytest.raises(CacheError, match=f"cache directory {cache}: Permission denied"):
        compile_c("int x;\n")


@needs_clang
def test_eight_threads_build_one_new_source(cache):
    call = relu_call("relu_threads")
    results, failures = [], []

    def build():
        try:
            results.append(Program(call)(2.0, 3.0))
        except Exception as error:  # counted, then asserted to be none
            failures.append(error)

    threads = [threading.Thread(target=build) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and results == [7.0] * 8
    assert not [name for name in os.listdir(cache) if "tmp" in name]
