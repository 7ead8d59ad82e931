def rewrite(pm: PatternMatcher, u, ctx=None):
    """PatternMatcher.rewrite: the first replacement a rule offers for u, or None."""
    return compiled_functions(pm)[u.op](u, ctx)


def compiled_functions(pm: PatternMatcher) -> dict:
    """op -> rewrite_<OP>(u, ctx) of pm, compiled the first time pm is asked and kept on it."""
    functions = vars(pm).get("compiled")
    return compile_matcher(pm) if functions is None else functions


def compile_matcher(pm: PatternMatcher) -> dict:
    """Generate, run and keep on pm one function per op (pm.source holds their text)."""
    # what the generated code refers to: each op by its name, arg_key, the counter; writing
    # the functions adds the rule functions still called and the globals of the bodies
    # written in (speed/inline.py)
    names: dict = {op.name: op for op in Ops}
    names.update(arg_key=arg_key, fired=pm.fired)
    pm.source = {op: function_source(op, pm.by_op[op], names) for op in Ops}
    exec("\n\n".join(pm.source.values()), names)  # defines rewrite_ADD, ...
    pm.compiled = {op: names[f"rewrite_{op.name}"] for op in Ops}
    pm.by_dtype = (pm.compiled, dtype_functions(pm, names))
    return pm.compiled


class CompiledMatcher(PatternMatcher):
    """A matcher compiled when it is made, whether the overlay is installed or not (for the
    tests that set the two side by side, and for chapter 7's look at the generated code)."""

    def __init__(self, rules):
        super().__init__(rules)
        compile_matcher(self)

    rewrite = rewrite


