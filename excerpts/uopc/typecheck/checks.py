_CHECKS = {
    Ops.CONST: _check_const,
    Ops.PARAM: _check_param,
    Ops.BUFFER: _check_param,
    Ops.ALLOC: _check_param,
    Ops.CALL: _check_call,
    Ops.INDEX: _check_index,
    Ops.LOAD: _check_load,
    Ops.STORE: _check_store,
    Ops.AFTER: _check_after,
    Ops.SINK: _check_sink,
    **{op: _check_alu for op in ALU},
}
