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


