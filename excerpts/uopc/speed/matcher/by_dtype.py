class ByDtype(dict):
    """dtype -> the function of one op for a node of that dtype; a dtype without a function of
    its own (a pointer, say) gets the op's function for every dtype."""

    def __init__(self, functions: dict, general):
        super().__init__(functions)
        self.general = general

    def __missing__(self, dtype):
        return self.general


def dtype_functions(pm: PatternMatcher, names: dict) -> dict:
    """op -> ByDtype: for each op some rule looks at and each value dtype, the op's function
    with every test of the node's own dtype decided in advance (a rule whose pattern refuses
    the dtype is left out, and a test it passes is not written), since `dtype in (...)` on a
    given dtype always gives the same answer. (pm.dtype_source holds their text.)"""
    pm.dtype_source = {
        (op, dtype): function_source(op, pm.by_op[op], names, dtype)
        for op in Ops
        if pm.by_op[op]
        for dtype in VALUE_DTYPES
    }
    exec("\n\n".join(pm.dtype_source.values()), names)
    by_dtype = {op: {} for op in Ops if pm.by_op[op]}
    for op, dtype in pm.dtype_source:
        by_dtype[op][dtype] = names[f"rewrite_{op.name}_{dtype.name}"]
    return {op: ByDtype(functions, pm.compiled[op]) for op, functions in by_dtype.items()}


def functions_by_dtype(pm: PatternMatcher) -> dict:
    """op -> ByDtype of pm (quiet ops left out): the functions made for each dtype while the
    ops' functions are the ones compile_matcher made, else those functions, whatever dtype."""
    functions = compiled_functions(pm)
    made, by_dtype = vars(pm).get("by_dtype", (None, None))
    if made is not functions:
        by_dtype = {op: ByDtype({}, functions[op]) for op in Ops if pm.by_op[op]}
    return by_dtype


