def rewrite(pm: PatternMatcher, u, ctx=None):
    """PatternMatcher.rewrite: the first replacement a rule offers for u, or None."""
    return compiled_functions(pm)[u.op](u, ctx)


def compiled_functions(pm: PatternMatcher) -> dict:
    """op -> rewrite_<OP>(u, ctx) of pm, each written the first time it is asked for."""
    functions = vars(pm).get("compiled")
    return prepare(pm) if functions is None else functions


def compile_matcher(pm: PatternMatcher) -> dict:
    """Write every function of pm at once, in a fixed order (the quick walk's tests, and
    tests/test_lazy_matcher.py, which holds each on-demand function equal to these)."""
    functions = prepare(pm)
    for op in Ops:
        functions[op]
    for functions_of_op in pm.by_dtype[1].values():
        for dtype in VALUE_DTYPES:
            functions_of_op[dtype]
    return functions


class CompiledMatcher(PatternMatcher):
    """A matcher compiled when it is made, whether the overlay is installed or not (for the
    tests that set the two side by side, and for chapter 7's look at the generated code)."""

    def __init__(self, rules):
        super().__init__(rules)
        compile_matcher(self)

    rewrite = rewrite


