def crosswise(buffers: int = 2) -> UOp:
    """b[0] = a[1]; b[1] = a[0], with a in slot 0 and b in the last slot."""
    builder = Builder()
    a = builder.buffer(0, F32, 2)
    for slot in range(1, buffers - 1):
        builder.buffer(slot, F32, 2)  # bystanders, never touched
    b = builder.buffer(buffers - 1, F32, 2)
    b.store(0, a.load(1))
    b.store(1, a.load(0))
    return make_call(builder.body(), [buffer_arg(s) for s in range(buffers)], f"cross{buffers}")


