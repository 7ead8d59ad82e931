def layer_fuzz(programs=None, inputs=None) -> int:
    """Programs 0 .. programs-1 at `inputs` inputs each (quick or full sizes of SIZES)."""
    programs = protocol.size(*SIZES["programs"]) if programs is None else programs
    inputs = protocol.size(*SIZES["inputs"]) if inputs is None else inputs
    checks = 0
    for start in range(0, programs, BATCH):
        checks += run_batch(range(start, min(start + BATCH, programs)), inputs)
    return checks


