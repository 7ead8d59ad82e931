def compile_c(src: str, cc: str | None = None, flags: list[str] | None = None) -> str:
    """The path of a shared library built from src, compiled now or found in the cache."""
    cc = CC if cc is None else cc  # read at call time, so that setting runtime.CC takes effect
    flags = CFLAGS if flags is None else flags
    key = cache_key(src, cc, flags)
    os.makedirs(CACHE_DIR, exist_ok=True)
    library = os.path.join(CACHE_DIR, f"{key}.so")
    if os.path.exists(library):
        STATS["hits"] += 1
        return library
    source = os.path.join(CACHE_DIR, f"{key}.c")
    _write_atomically(source, src)  # left in place: compiler errors point into it
    temporary = f"{library}.{os.getpid()}.tmp"
    start = time.perf_counter()
    done = subprocess.run(
        [cc, *flags, source, "-o", temporary, "-lm"], capture_output=True, text=True
    )
    if done.returncode != 0:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise RuntimeError(f"{cc} failed:\n{done.stderr}")
    os.replace(temporary, library)  # atomic: another process sees no library or all of it
    STATS["compiles"] += 1
    STATS["compile_seconds"] += time.perf_counter() - start
    return library


