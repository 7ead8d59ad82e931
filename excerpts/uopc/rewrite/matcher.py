class PatternMatcher:
    """An ordered list of rules, indexed by the op at the top of each pattern."""

    def __init__(self, rules):
        self.rules = list(rules)
        self.by_op = {op: [] for op in Ops}
        for r in self.rules:
            for op in r.pat.op if r.pat.op is not None else Ops:
                self.by_op[op].append(r)
        self.fired = collections.Counter()
        # Speed only: by_op narrowed by the node's dtype, filled on first use.
        self.by_op_dtype: dict = {op: {} for op in Ops}

    def __add__(self, other: "PatternMatcher") -> "PatternMatcher":
        return PatternMatcher(self.rules + other.rules)

    def rewrite(self, u: UOp, ctx=None):
        """The first replacement offered by a rule for u, or None when no rule fires."""
        for src_ops, match, fn, wants_ctx, name in self._rules_for(u):
            for position, ops in src_ops:
                # speed only: reject on the ops of the srcs before paying for a call to match()
                if position >= len(u.src) or u.src[position].op not in ops:
                    break
            else:
                store = {}
                if match(u, store):
                    result = fn(ctx=ctx, **store) if wants_ctx else fn(**store)
                    if result is not None and result is not u:  # returning u would loop
                        self.fired[name] += 1
                        return result
        return None

    def _rules_for(self, u: UOp) -> list:
        """by_op[u.op] without the rules whose pattern excludes u's dtype (speed only),
        each unpacked into the fields the loop above reads."""
        rules = self.by_op_dtype[u.op].get(u.dtype)
        if rules is None:
            rules = self.by_op_dtype[u.op][u.dtype] = [
                (r.pat.src_ops, r.pat.match, r.fn, r.wants_ctx, r.name)
                for r in self.by_op[u.op]
                if r.pat.dtype is None or u.dtype in r.pat.dtype
            ]
        return rules


