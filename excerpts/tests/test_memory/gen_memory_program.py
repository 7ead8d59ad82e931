def gen_memory_program(seed):
    """Program `seed`: (call, inputs), inputs being one list of initial values per buffer."""
    r = random.Random(seed)
    program = _Program(r)
    for number in range(STEPS):
        program.step(last=number == STEPS - 1)
    args = [UOp(Ops.BUFFER, (), mem.base.arg) for mem in program.mems]
    call = make_call(program.builder.body(), args, f"mem{seed}")
    inputs = [
        [initial_value(r, d) for _ in range(n)] for d, n in zip(GLOBALS, program.sizes, strict=True)
    ]
    return call, inputs


