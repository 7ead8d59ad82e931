"""Speed in its own place: the rules of a matcher compiled into Python functions.

Relies on `ops`, `uop` and `rewrite`. The plain matcher (`rewrite.PatternMatcher`) interprets
each pattern for each node: a call to `UPat.match` per rule tried, a dictionary per attempt. A
`CompiledMatcher` turns the rules under each op into the source text of one Python function, in
which every pattern is a chain of tests joined by `and` and the bound names are expressions
such as `s[0]`, then runs that text once with `exec`. Invariant: for every node, the compiled
function returns the same node as the plain `rewrite`, fires the same rule and counts it in
`fired` the same way (tests/test_compiled.py checks this over every rule and random graphs).

A compiled matcher also walks a graph more quickly (`walk`, at the end): the plain walk
(`rewrite._rewrite_to_fixed_point`, chapter 8) puts a node on its stack once or twice more than
it needs to. A constant under a new node is pushed, popped and settled in a step of its own, and
a rule's replacement is pushed and popped before its walk begins. `walk` settles a source that
is a leaf of a quiet op (no rule looks at it) where the plain walk would pop it (the first such
sources before the node's other sources are pushed, the last ones when the node comes back),
and walks a replacement at once; it calls each op's generated function itself, where the plain
walk goes through `rewrite`. Invariant: for every graph, rule list and limit, `walk` asks the
same questions in the same order as the plain walk, so it builds the same nodes in the same
order (ids included), counts the same steps, fires the same rules and gives the same result, or
the same `RewriteLimit` with the same message (tests/test_quick_walk.py runs both side by side).

The plain matcher, with the plain walk, is one switch away: `UOPC_MATCHER=plain` in the
environment, or `matcher(rules, compiled=False)`.
"""

import inspect
import os

from .ops import Ops
from .rewrite import ANY, BASE_LIMIT, PatternMatcher, RewriteLimit, UPat, _limit_for
from .uop import arg_key

MODES = {"compiled": True, "plain": False}


# --8<-- [start:matcher_switch]
def matcher(rules, compiled: bool | None = None) -> PatternMatcher:
    """A matcher over rules: compiled unless `compiled` is False, or it is None and the
    environment says UOPC_MATCHER=plain."""
    if compiled is None:
        mode = os.environ.get("UOPC_MATCHER", "compiled")
        if mode not in MODES:
            raise ValueError(f"UOPC_MATCHER must be 'compiled' or 'plain', got {mode!r}")
        compiled = MODES[mode]
    return CompiledMatcher(rules) if compiled else PatternMatcher(rules)


# --8<-- [end:matcher_switch]


# --8<-- [start:compiled_matcher]
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


# --8<-- [end:compiled_matcher]


# --8<-- [start:function_source]
def function_source(op: Ops, rules: list, names: dict) -> str:
    """def rewrite_<OP>(u, ctx): the rules of by_op[op] in order, the first that fires wins."""
    lines = [f"def rewrite_{op.name}(u, ctx):"]
    for number, r in enumerate(rules):
        code = PatternCode(f"r{number}", names)
        tests = code.tests(r.pat, "u", top=op)
        arguments = call_arguments(r, code.bound)
        fn = code.constant(r.fn, "fn")
        lines += [
            f"    # {r.name}",
            f"    if {' and '.join(tests) or 'True'}:",
            f"        result = {fn}({', '.join(arguments)})",
            "        if result is not None and result is not u:",
            f"            fired[{r.name!r}] += 1",
            "            return result",
        ]
    return "\n".join([*lines, "    return None"])


# --8<-- [end:function_source]


def call_arguments(r, bound: dict) -> list[str]:
    """The arguments of the call to r's function: by position where its parameters are all
    bound (a call by position is quicker), else by keyword, as the plain matcher calls it."""
    parameters = inspect.signature(r.fn).parameters.values()
    wanted = [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    given = {**bound, "ctx": "ctx"} if r.wants_ctx else bound
    if len(wanted) == len(parameters) and set(wanted) == set(given):
        return [given[name] for name in wanted]
    return [f"{name}={expression}" for name, expression in given.items()]


# Speed only: how many srcs the checker lets a node of each ALU op have (typecheck refuses any
# other number, so every node has it): a pattern over such an op needs no test of its length,
# only the binding of its srcs. tests/test_compiled.py checks this against the checker.
ARITY = {
    **{op: 1 for op in (Ops.CAST, Ops.NEG, Ops.RECIP, Ops.EXP2, Ops.LOG2)},
    **{op: 2 for op in (Ops.ADD, Ops.MUL, Ops.MAX, Ops.CMPLT, Ops.CMPNE)},
    **{op: 2 for op in (Ops.FLOORDIV, Ops.FLOORMOD)},
    Ops.WHERE: 3,
}


# --8<-- [start:pattern_code]
class PatternCode:
    """The tests of one pattern as Python expressions, in the order `UPat.match` makes them.

    A src tuple is bound once with `:=` (`(r0_s := u.src)`, inside a length test unless the op
    fixes the number: ARITY), so a src is an index into it (`r0_s[1]`); a name is bound to the
    expression of the first node it meets, and a later use of the same name becomes an identity
    test. Other values (op sets, dtypes, arg keys, the rule's function) are looked up by name
    in `names`.
    """

    def __init__(self, prefix: str, names: dict):
        self.prefix, self.names = prefix, names
        self.bound: dict[str, str] = {}  # pattern name -> the expression of its node
        self.tuples = 0

    def constant(self, value, kind: str) -> str:
        name = f"{kind}{len(self.names)}"
        self.names[name] = value
        return name

    def tests(self, pat: UPat, node: str, top: Ops | None = None) -> list[str]:
        """The tests of pat on the node named `node`; top is the op of the node at the top,
        which the function's own op fixes (rules are indexed by op)."""
        tests = []
        if pat.op is not None and top is None:
            tests.append(self._op_test(pat.op, node))
        if pat.dtype is not None:
            tests.append(f"{node}.dtype in {self.constant(pat.dtype, 'dtypes')}")
        if pat.arg is not ANY:
            tests.append(f"arg_key({node}.arg) == {self.constant(pat.arg_key, 'arg')}")
        if pat.src is not None:
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


# --8<-- [end:pattern_code]


# ---------------------------------------------------------------------------------------------
# The quicker walk
# ---------------------------------------------------------------------------------------------


def walk(root, pm, ctx, limit):
    """rewrite._rewrite_to_fixed_point's result, by the same questions in the same order.

    One long function: its speed comes from keeping the loop's names local."""
    limits = [BASE_LIMIT if limit is None else limit, limit is None]  # the limit, scale later

    def over(steps: int) -> bool:
        """Called when steps passes the limit: as the plain walk, scale it once, then stop."""
        if limits[1]:
            limits[0], limits[1] = _limit_for(root), False
        if steps > limits[0]:
            busiest = pm.fired.most_common(3)
            raise RewriteLimit(f"more than {limits[0]} rewrite steps; busiest rules: {busiest}")
        return False

    final: dict = {}  # every node finished so far -> its final form
    steps, cap = 0, limits[0]
    ask, quiet = pm.compiled, pm.quiet  # each op's generated function, called directly
    stack = [(root, False, None)]  # (node, its sources are done, None) or (node, None, pair)
    push, pop = stack.append, stack.pop
    while stack:
        node, srcs_done, pair = pop()
        if srcs_done is None:  # the plain walk's REPLACEMENT_DONE
            rebuilt, replacement = pair
            final[node] = final[rebuilt] = final[replacement]
            continue
        if node in final:
            continue
        while True:  # node, then the replacement a rule gives for it, and so on
            src = node.src
            rebuilt = node
            if src:
                if srcs_done:  # the last sources, left for now: quiet leaves
                    for s in src:
                        if s not in final:
                            steps += 1
                            if steps > cap:
                                over(steps)
                                cap = limits[0]
                            final[s] = s
                    srcs_done = False
                else:
                    first, count = 0, len(src)
                    while first < count:  # the first sources: finished or quiet leaves
                        s = src[first]
                        if s not in final:
                            if s.src or s.op not in quiet:
                                break
                            steps += 1
                            if steps > cap:
                                over(steps)
                                cap = limits[0]
                            final[s] = s
                        first += 1
                    if first < count:  # some source needs a walk of its own
                        last = count - 1
                        while last > first and not src[last].src and src[last].op in quiet:
                            last -= 1
                        push((node, True, None))
                        for s in src[last:first:-1]:
                            if s not in final:
                                push((s, False, None))
                        push((src[first], False, None))
                        break
                if len(src) == 2:
                    a, b = src
                    new_a, new_b = final[a], final[b]
                    if new_a is not a or new_b is not b:
                        rebuilt = node.replace_src((new_a, new_b))
                else:
                    new_src = tuple([final[s] for s in src])
                    if new_src != src:
                        rebuilt = node.replace_src(new_src)
                if rebuilt in final:  # met before, under another name
                    final[node] = final[rebuilt]
                    break
            replacement = None if rebuilt.op in quiet else ask[rebuilt.op](rebuilt, ctx)
            steps += 1
            if steps > cap:
                over(steps)
                cap = limits[0]
            if replacement is None:
                final[node] = final[rebuilt] = rebuilt
                break
            push((node, None, (rebuilt, replacement)))
            if replacement in final:
                break
            node = replacement
    return final[root]


CompiledMatcher.walk = staticmethod(walk)  # what graph_rewrite calls for a compiled matcher
