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


