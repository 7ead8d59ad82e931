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
    try:
        _write_atomically(source, src.encode("utf-8"), directory, key)  # kept: errors point here
        start = time.perf_counter()
        _build(cc, flags, source, library, directory, key, timeout)
    except OSError as error:
        raise CacheError(f"cache directory {directory}: {error.strerror or error}") from None
    STATS["compiles"] += 1
    STATS["compile_seconds"] += time.perf_counter() - start
    return library


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


