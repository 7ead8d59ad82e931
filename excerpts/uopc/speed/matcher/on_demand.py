def prepare(pm: PatternMatcher) -> dict:
    """Put on pm, still empty, the tables of its generated functions: pm.compiled (op ->
    function) and pm.by_dtype (op -> dtype -> function), and pm.source and pm.dtype_source
    (their text). A function is written, run and kept the first time it is asked for, so a
    process pays only for the ops and dtypes it meets (compile_matcher writes them all)."""
    # what every function is handed: each op by its name, arg_key, the counter; writing one
    # adds the rule functions still called and the globals of its bodies written in
    # (speed/inline.py)
    start: dict = {op.name: op for op in Ops}
    start.update(arg_key=arg_key, fired=pm.fired)

    def write(key) -> None:
        """Generate and run the function of key, an op or (op, dtype); keep it and its text."""
        op, dtype = key if isinstance(key, tuple) else (key, None)
        names = dict(start)  # its own copy: its text depends on no other function's
        text = function_source(op, pm.by_op[op], names, dtype)
        exec(text, names)  # defines rewrite_ADD, or rewrite_ADD_i32, ...
        if dtype is None:
            source[op], compiled[op] = text, names[f"rewrite_{op.name}"]
        else:
            dtype_source[key] = text
            by_dtype[op][dtype] = names[f"rewrite_{op.name}_{dtype.name}"]

    def write_for_dtype(key) -> None:  # (op, dtype): a value dtype of an op some rule looks at
        if key[0] not in by_dtype or key[1] not in VALUE_DTYPES:
            raise KeyError(key)
        write(key)

    def fill_for(op: Ops):  # a dtype missing from the ByDtype of op: its own function or op's
        def fill(dtype) -> None:
            if dtype in VALUE_DTYPES:
                write((op, dtype))
            else:
                by_dtype[op][dtype] = compiled[op]

        return fill

    compiled, source, dtype_source = OnDemand(write), OnDemand(write), OnDemand(write_for_dtype)
    by_dtype = {op: ByDtype({}, None, fill_for(op)) for op in Ops if pm.by_op[op]}
    pm.source, pm.dtype_source = source, dtype_source
    pm.compiled, pm.by_dtype = compiled, (compiled, by_dtype)
    return compiled


class OnDemand(dict):
    """A dict whose missing entry fill(key) puts in the first time it is asked for (fill
    raises KeyError for a key it has no entry for)."""

    def __init__(self, fill):
        super().__init__()
        self.fill = fill

    def __missing__(self, key):
        self.fill(key)
        return self[key]


