class ByDtype(dict):
    """dtype -> the function of one op for a node of that dtype; a dtype without a function of
    its own (a pointer, say) gets the op's function for every dtype. Made by prepare, it is
    filled on demand: fill(dtype) writes a missing dtype's function and keeps it, so the
    walk's look-up misses once per dtype and then finds it."""

    def __init__(self, functions: dict, general, fill=None):
        super().__init__(functions)
        self.general, self.fill = general, fill

    def __missing__(self, dtype):
        if self.fill is None:
            return self.general
        self.fill(dtype)
        return self[dtype]


def functions_by_dtype(pm: PatternMatcher) -> dict:
    """op -> ByDtype of pm (quiet ops left out): the functions made for each dtype while the
    ops' functions are the ones prepare made, else those functions, whatever dtype."""
    functions = compiled_functions(pm)
    made, by_dtype = vars(pm).get("by_dtype", (None, None))
    if made is not functions:
        by_dtype = {op: ByDtype({}, functions[op]) for op in Ops if pm.by_op[op]}
    return by_dtype


