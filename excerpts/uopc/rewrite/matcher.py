class PatternMatcher:
    """An ordered list of rules, indexed by the op at the top of each pattern."""

    def __init__(self, rules):
        self.rules = list(rules)
        self.by_op = {op: [] for op in Ops}
        for r in self.rules:
            for op in r.pat.op if r.pat.op is not None else Ops:
                self.by_op[op].append(r)
        self.fired = collections.Counter()
        self.quiet = frozenset(op for op in Ops if not self.by_op[op])  # ops no rule looks at

    def __add__(self, other: "PatternMatcher") -> "PatternMatcher":
        return type(self)(self.rules + other.rules)

    def rewrite(self, u: UOp, ctx=None):
        """The first replacement offered by a rule for u, or None when no rule fires."""
        for r in self.by_op[u.op]:
            store = {}
            if r.pat.match(u, store):
                result = r.fn(ctx=ctx, **store) if r.wants_ctx else r.fn(**store)
                if result is not None and result is not u:  # returning u would loop
                    self.fired[r.name] += 1
                    return result
        return None


