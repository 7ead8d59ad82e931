"""The twin of `PatternMatcher.rewrite`: a matcher's rules compiled into Python functions.

Relies on `ops`, `uop` and `rewrite`. The plain matcher (`rewrite.PatternMatcher.rewrite`)
interprets each pattern for each node: a call to `UPat.match` per rule tried, a dictionary per
attempt. Compiled, the rules under each op become the source text of one Python function, in
which every pattern is a chain of tests joined by `and` and the bound names are expressions such
as `s[0]`; there is a second set of functions, one per op and value dtype, in which the tests
of the node's own dtype are decided in advance (the quick walk calls these). Each function is
written and run with `exec` the first time it is asked for, so that a process pays only for the
ops and dtypes it meets, and with names of its own, so that its text is the same whenever it is
written. Invariant: for every node, the compiled functions return the same node as the plain
`rewrite`, fire the same rule and count it in `fired` the same way (tests/test_compiled.py
checks this over every rule and random graphs; tests/test_lazy_matcher.py holds each function
written on demand equal to the one written with all the others at once).
"""

import ast
import inspect

from .. import ranges
from ..dtypes import VALUE_DTYPES
from ..ops import Ops
from ..rewrite import ANY, PatternMatcher, UPat
from ..uop import UOp, arg_key
from .inline import inline_rule, same_code


# --8<-- [start:compiled_matcher]
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


# --8<-- [end:compiled_matcher]


# --8<-- [start:on_demand]
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


# --8<-- [end:on_demand]


# --8<-- [start:by_dtype]
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


# --8<-- [end:by_dtype]


# --8<-- [start:function_source]
def function_source(op: Ops, rules: list, names: dict, dtype=None) -> str:
    """def rewrite_<OP>(u, ctx): the rules of by_op[op] in order, the first that fires wins.
    Given a dtype, rewrite_<OP>_<dtype>, for a node of that dtype only (dtype_functions)."""
    lines = [f"def rewrite_{op.name}{'' if dtype is None else '_' + dtype.name}(u, ctx):"]
    srcs = top_srcs(op)
    if srcs and rules:  # unpacked once for every rule (its op fixes their number: ARITY)
        lines.append(f"    {', '.join(srcs)}{',' if len(srcs) == 1 else ''} = u.src")
    for number, r in enumerate(rules):
        if dtype is not None and r.pat.dtype is not None and dtype not in r.pat.dtype:
            continue  # the pattern refuses a node of this dtype
        code = PatternCode(f"r{number}", names, srcs)
        tests = code.tests(r.pat, "u", top=op, top_dtype=dtype)
        arguments = call_arguments(r, code.bound)
        lines += [f"    # {r.name}", f"    if {' and '.join(tests) or 'True'}:"]
        inlined = inline_rule(
            r, code.bound, f"r{number}", names, dtype is not None, CACHED_READS, CALLS
        )
        if inlined is None:  # the call to the rule's function
            fn = code.constant(r.fn, "fn")
            lines += [
                f"        result = {fn}({', '.join(arguments)})",
                "        if result is not None and result is not u:",
                f"            fired[{r.name!r}] += 1",
                "            return result",
            ]
        else:  # its body, written in (speed/inline.py)
            body, local = inlined
            lines += [f"        {line}" for line in body]
            lines += [f"    {' = '.join(local)} = None"] if local else []
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


def top_srcs(op: Ops) -> list[str]:
    """The names the function of op gives the srcs of its node, u_s0, u_s1, ..., when op fixes
    their number (ARITY), else none."""
    return [f"u_s{position}" for position in range(ARITY.get(op, 0))]


# How many srcs the checker lets a node of each ALU op have (typecheck refuses any
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


# --8<-- [end:pattern_code]


# ---------------------------------------------------------------------------------------------
# The range's properties, read from the cache in the inlined bodies
# ---------------------------------------------------------------------------------------------


# The plain properties as they are written in uop.py (each compared with the one there; a
# docstring aside, the same bytecode, names and constants)
def vmin(self):
    return self.range[0]


def vmax(self):
    return self.range[1]


def safe(self) -> bool:
    return self.range[2]


def range_(self) -> tuple:
    if self._range is None:
        ranges.fill_ranges(self)
    return self._range


# read -> (the cache, the property that fills it, the index read in it)
READS = {
    "vmin": (vmin, ("_range", "range", 0)),
    "vmax": (vmax, ("_range", "range", 1)),
    "safe": (safe, ("_range", "range", 2)),
    "range": (range_, ("_range", "range", None)),
}


def cached_reads(plain: dict) -> dict:
    """The reads of a node's range (x.vmin, x.vmax, x.safe, x.range) that an inlined rule
    body may make from the cache, `(x._range or x.range)[0]`: those whose plain property
    (plain: name -> the property in uop.py) is written as above. Each then gives what the
    cache holds, when it holds a triple (a tuple of three: never false), and the range
    property's answer when it does not, which the property (plain or its twin, node_range)
    fills and returns; a property changed in uop.py (a planted bug) is read as it is."""
    ok_range = same_code(plain["range"].fget, range_)
    return {
        name: read
        for name, (reference, read) in READS.items()
        if ok_range and same_code(plain[name].fget, reference)
    }


# the properties of uop.py as this module finds them (imported before install: the plain ones)
CACHED_READS = cached_reads({name: vars(UOp)[name] for name in READS})


# ---------------------------------------------------------------------------------------------
# The node's constructor called at once in the inlined bodies
# ---------------------------------------------------------------------------------------------


def const(value) -> UOp:  # UOp.const as uop.py writes it (compared with it: same_code)
    return UOp(Ops.CONST, (), value)


def new_node(args: list, keywords: list, name) -> ast.Call:
    """UOp(...) as UOp.__new__(UOp, ...): the same node, without type.__call__ (which calls
    __new__ with a tuple of the arguments, then object.__init__, which does nothing for a
    UOp). __new__ is read when the call runs: the twin, or the plain one when left out."""
    new = ast.Attribute(name(UOp, "UOp"), "__new__", ast.Load())
    return ast.Call(new, [name(UOp, "UOp"), *args], keywords)


def new_const(args: list, keywords: list, name) -> ast.Call | None:
    """UOp.const(value), whose body is UOp(Ops.CONST, (), value), as that call made at once."""
    if keywords or len(args) != 1 or isinstance(args[0], ast.Starred):
        return None
    empty = ast.Tuple([], ast.Load())
    return new_node([name(Ops.CONST, "CONST"), empty, args[0]], [], name)


def constructor_calls(cls) -> list:
    """(callable, maker) for inline_rule: UOp(...) and UOp.const(...) written as calls of
    UOp.__new__, while calling the class does only that (cls has no __init__ of its own and
    its class calls as type does) and UOp.const is written as above (a const changed in
    uop.py, a planted bug say, is called as it is)."""
    if type(cls).__call__ is not type.__call__ or cls.__init__ is not object.__init__:
        return []
    calls = [(cls, new_node)]
    plain_const = vars(cls).get("const")
    if isinstance(plain_const, staticmethod) and same_code(plain_const.__func__, const):
        calls.append((plain_const.__func__, new_const))
    return calls


CALLS = constructor_calls(UOp)
