class PatternCode:
    """The tests of one pattern as Python expressions, in the order `UPat.match` makes them.

    A src tuple is bound once with `:=` (`(r0_s := u.src)`, inside a length test unless the op
    fixes the number: ARITY), so a src is an index into it (`r0_s[1]`); the srcs of the node
    itself, when its op fixes their number, are the names the function gave them once for every
    rule (`u_s1`, top_srcs); a name is bound to the
    expression of the first node it meets, and a later use of the same name becomes an identity
    test. Other values (op sets, dtypes, arg keys, the rule's function) are looked up by name
    in `names`.
    """

    def __init__(self, prefix: str, names: dict, top_srcs: list | None = None):
        self.prefix, self.names, self.top_srcs = prefix, names, top_srcs or []
        self.bound: dict[str, str] = {}  # pattern name -> the expression of its node
        self.tuples = 0

    def constant(self, value, kind: str) -> str:
        name = f"{kind}{len(self.names)}"
        self.names[name] = value
        return name

    def tests(self, pat: UPat, node: str, top: Ops | None = None, top_dtype=None) -> list[str]:
        """The tests of pat on the node named `node`; top is the op of the node at the top,
        which the function's own op fixes (rules are indexed by op), and top_dtype its dtype
        when the function is made for one (a dtype the pattern accepts)."""
        tests = []
        if pat.op is not None and top is None:
            tests.append(self._op_test(pat.op, node))
        if pat.dtype is not None and top_dtype is None:
            tests.append(f"{node}.dtype in {self.constant(pat.dtype, 'dtypes')}")
        if pat.arg is not ANY:
            tests.append(f"arg_key({node}.arg) == {self.constant(pat.arg_key, 'arg')}")
        if pat.src is not None and top is not None and len(self.top_srcs) == len(pat.src):
            for position, src_pat in enumerate(pat.src):  # the function's own names for them
                tests += self.tests(src_pat, self.top_srcs[position])
        elif pat.src is not None:
            srcs = f"{self.prefix}_s{self.tuples}"
            self.tuples += 1
            ops = (top,) if top is not None else pat.op or ()
            if ops and all(ARITY.get(op) == len(pat.src) for op in ops):
                tests.append(f"({srcs} := {node}.src)")  # its op fixes the number: bind only
            else:
                tests.append(f"len({srcs} := {node}.src) == {len(pat.src)}")
            for position, src_pat in enumerate(pat.src):
                tests += self.tests(src_pat, f"{srcs}[{position}]")
        if pat.name is not None:
            if pat.name in self.bound:  # a name used twice binds one node
                tests.append(f"{node} is {self.bound[pat.name]}")
            else:
                self.bound[pat.name] = node
        return tests

    def _op_test(self, ops: tuple, node: str) -> str:
        if len(ops) == 1:
            return f"{node}.op is {ops[0].name}"
        return f"{node}.op in {self.constant(frozenset(ops), 'ops')}"


