def layer_memory(programs=None) -> int:
    """Programs 0 .. programs-1 (20 quick, 200 full), in batches; returns the check count."""
    programs = protocol.size(20, 200) if programs is None else programs
    checks = 0
    for start in range(0, programs, BATCH):
        checks += run_batch(range(start, min(start + BATCH, programs)))
    return checks


