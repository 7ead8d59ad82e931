class CompiledMatcher(PatternMatcher):
    """A PatternMatcher whose rewrite runs one generated function per op."""

    def __init__(self, rules):
        super().__init__(rules)
        # what the generated code refers to: each op by its name, arg_key, the counter
        self.names: dict = {op.name: op for op in Ops}
        self.names.update(arg_key=arg_key, fired=self.fired)
        self.source = {op: function_source(op, self.by_op[op], self.names) for op in Ops}
        exec("\n\n".join(self.source.values()), self.names)  # defines rewrite_ADD, ...
        self.compiled = {op: self.names[f"rewrite_{op.name}"] for op in Ops}

    def rewrite(self, u, ctx=None):
        return self.compiled[u.op](u, ctx)


