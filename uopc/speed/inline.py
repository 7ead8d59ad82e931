"""Rule bodies written into the compiled matcher: the call to a rule's function, inlined.

Relies on nothing of uopc. The compiled matcher (`speed.matcher`) calls each rule's function
with the nodes its pattern bound; for most rules the call costs more than the body, which
usually tests a constant and returns None. `inline_rule` reads the function's own source (the
file Python ran, checked against the running code: compiled again, it must give the very same
code object), and turns its body into lines of the generated function: each parameter becomes
a local bound to its node, every other local is renamed for the rule, a global is looked up
once and handed to `exec` by name, and each `return value` becomes the matcher's own test
(`if result is not None and result is not u`) and return. A `return` that stops the body early
sends the rest of the body into an `else`; one inside a loop also leaves the loop (`break`)
and the rest of the body goes into the loop's `else`. A body that this cannot carry over
exactly (nested loops, `break`, `try`, `lambda`, a closure, ...) is not inlined: the rule's
function is called, as before. A read of a node's range by a parameter (`x.vmin`) becomes a read
of the node's cache, with the property called only when the cache is empty (`reads`, given by
speed.matcher only while the plain properties are as it expects).

Because the text comes from the source file, a mistake planted in a rule reaches the generated
code too; tests/test_compiled.py holds the compiled matcher equal to the plain one over every
rule and random graphs.
"""

import ast
import builtins
import copy
import dis
import enum
import functools
import linecache
import types

MAX_LINES = 60  # a body that unfolds to more lines than this is called, not inlined
RESERVED = ("u", "ctx", "result", "u_s0", "u_s1", "u_s2")  # the generated function's own names


def same_code(first, second) -> bool:
    """Whether two functions run the same code: the same instructions on the same names and
    constants, those of the functions defined inside them too (a docstring, which moves the
    constants' numbers, and the lines they sit on aside)."""
    return same_code_object(first.__code__, second.__code__)


def same_code_object(a: types.CodeType, b: types.CodeType) -> bool:
    steps_a, steps_b = list(dis.get_instructions(a)), list(dis.get_instructions(b))
    if len(steps_a) != len(steps_b) or a.co_argcount != b.co_argcount:
        return False
    for x, y in zip(steps_a, steps_b, strict=True):
        if x.opname != y.opname or (x.arg is None) != (y.arg is None):
            return False
        if isinstance(x.argval, types.CodeType) and isinstance(y.argval, types.CodeType):
            if not same_code_object(x.argval, y.argval):
                return False
        elif type(x.argval) is not type(y.argval) or x.argval != y.argval:
            return False
        elif x.opname == "LOAD_GLOBAL" and (x.arg & 1) != (y.arg & 1):  # (a NULL pushed first)
            return False
    return True


class NotInlined(Exception):
    """The body holds something inline_rule does not carry over exactly."""


def function_tree(fn) -> ast.FunctionDef | None:
    """The tree of fn's definition, from its source file, if that source is what runs: the
    file compiled again (not run) must hold fn's own code object."""
    code = getattr(fn, "__code__", None)  # (a builtin, a partial or a method has none)
    if code is None or not isinstance(code, types.CodeType):
        return None
    filename = code.co_filename
    module = module_tree(filename, "".join(linecache.getlines(filename)))
    if module is None:
        return None
    codes, definitions = module
    key = (code.co_name, code.co_firstlineno)
    if codes.get(key) != code or key not in definitions:
        return None
    # the caller rewrites the tree, so each call gets a tree of its own: a definition at the
    # left margin is parsed anew from its text (in C, several times quicker than a deep copy)
    definition = definitions[key]
    if isinstance(definition, str):
        return ast.parse(definition).body[0]
    return copy.deepcopy(definition)


@functools.cache
def module_tree(filename: str, source: str):
    """({(name, first line): code object}, {(name, first line): the def}) of a module's
    source, or None: the def's text when it starts at the left margin, else its tree. A
    function's first line is its first decorator's, as in its code object."""
    try:
        tree = ast.parse(source, filename)
        code = compile(tree, filename, "exec")
    except (SyntaxError, ValueError):
        return None
    codes, stack = {}, [code]
    while stack:
        for const in stack.pop().co_consts:
            if isinstance(const, types.CodeType):
                codes[const.co_name, const.co_firstlineno] = const
                stack.append(const)
    lines = source.splitlines(keepends=True)
    definitions = {}
    for node in statements(tree):
        if isinstance(node, ast.FunctionDef):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            text = "".join(lines[node.lineno - 1 : node.end_lineno])
            definitions[node.name, first] = text if node.col_offset == 0 else node
    return codes, definitions


def statements(tree: ast.AST):
    """Every statement of tree, at any depth (a def is a statement, and no expression holds
    one: the walk does not enter them, which ast.walk would)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, BLOCKS))


BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)  # what a statement's blocks hold


ALLOWED = (
    ast.Assign, ast.AugAssign, ast.Expr, ast.Pass, ast.If, ast.For, ast.Return,
    ast.expr, ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop,
    ast.comprehension, ast.arguments, ast.arg, ast.keyword,
)  # fmt: skip
REFUSED = (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


def check_nodes(nodes: list) -> None:
    """nodes: every node of the body's statements."""
    for node in nodes:
        if isinstance(node, REFUSED) or not isinstance(node, ALLOWED):
            raise NotInlined(type(node).__name__)
        if isinstance(node, ast.For) and (node.orelse or any(
            isinstance(inner, ast.For | ast.Break | ast.Continue)
            for child in node.body for inner in ast.walk(child)
        )):  # fmt: skip
            raise NotInlined("a loop with else, an inner loop, break or continue")


class Inliner:
    """One rule's body made into lines of the generated function."""

    def __init__(self, fn, every: list, prefix: str, names: dict, rule_name: str):
        """every: each node of fn's definition (its tree walked once, by inline_rule)."""
        self.fn, self.prefix, self.names, self.rule_name = fn, prefix, names, rule_name
        code = fn.__code__
        self.locals = set(code.co_varnames)
        targets = {
            n.id
            for c in every
            if isinstance(c, ast.comprehension)
            for n in ast.walk(c.target)
            if isinstance(n, ast.Name)
        }
        if code.co_cellvars or code.co_freevars or targets & (set(code.co_names) | self.locals):
            raise NotInlined("a closure, or a comprehension variable with another meaning")
        self.locals |= targets
        self.renamed: set[str] = set()

    def name(self, node: ast.Name) -> ast.Name:
        """A local gets the rule's prefix; a global is handed over under a name of its own."""
        if node.id in self.locals:
            new = f"{self.prefix}_{node.id}"
            self.renamed.add(new)
        else:
            new = self.global_name(node.id)
        return ast.copy_location(ast.Name(new, node.ctx), node)

    def global_name(self, name: str) -> str:
        return self.handed_over(name, self.global_value(name))

    def global_value(self, name: str):
        if name in self.fn.__globals__:
            return self.fn.__globals__[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise NotInlined(f"the name {name} is not defined")

    def handed_over(self, name: str, value) -> str:
        """The name under which exec is handed value: name itself, unless that is taken."""
        if name not in RESERVED and self.names.get(name, value) is value:
            self.names[name] = value
            return name
        alias = f"g{len(self.names)}_{name}"
        self.names[alias] = value
        return alias

    def member(self, node: ast.Attribute) -> ast.expr | None:
        """`Ops.CONST`, a member of a global enum read by its name, as the member itself under
        a name of its own (a member is bound for good: the look-up is made once, here)."""
        if not isinstance(node.value, ast.Name) or node.value.id in self.locals:
            return None
        owner = self.global_value(node.value.id)
        is_enum = isinstance(owner, type) and issubclass(owner, enum.Enum)
        if not is_enum or node.attr not in vars(owner):
            return None
        value = vars(owner)[node.attr]
        if not isinstance(value, owner) or not isinstance(node.ctx, ast.Load):
            return None
        return ast.copy_location(ast.Name(self.handed_over(node.attr, value), ast.Load()), node)

    def returned(self, value: ast.expr | None, in_loop: bool) -> list:
        """`return value` as the matcher returns: only a result that is news."""
        if value is None or (isinstance(value, ast.Constant) and value.value is None):
            lines = []
        else:
            lines = ast.parse(
                "result = VALUE\n"
                "if result is not None and result is not u:\n"
                f"    fired[{self.rule_name!r}] += 1\n"
                "    return result\n"
            ).body
            lines[0].value = value
        return lines + [ast.Break()] if in_loop else lines or [ast.Pass()]

    def block(self, statements: list, in_loop: bool = False) -> list:
        """The statements with each return turned, and what follows an early one moved into
        the branch or the loop's else that reaches it."""
        out = []
        for number, statement in enumerate(statements):
            rest = statements[number + 1 :]
            if isinstance(statement, ast.Return):
                return out + self.returned(statement.value, in_loop)
            if not any(isinstance(n, ast.Return) for n in ast.walk(statement)):
                out.append(statement)
                continue
            if isinstance(statement, ast.If):
                body = statement.body + ([] if ends(statement.body) else rest)
                orelse = statement.orelse + ([] if ends(statement.orelse) else rest)
                body, orelse = self.block(body, in_loop), self.block(orelse, in_loop)
                out.append(branch(statement.test, body, orelse))
                return out
            if isinstance(statement, ast.For) and not in_loop:
                body = self.block(statement.body, in_loop=True)
                out.append(ast.For(statement.target, statement.iter, body, self.block(rest)))
                return out
            raise NotInlined(type(statement).__name__)
        return out


def branch(test: ast.expr, body: list, orelse: list) -> ast.If:
    """if test: body else: orelse, without a branch that only passes."""
    if orelse and all(isinstance(s, ast.Pass) for s in orelse):
        orelse = []
    if orelse and all(isinstance(s, ast.Pass) for s in body):
        return ast.If(ast.UnaryOp(ast.Not(), test), orelse, [])
    return ast.If(test, body, orelse)


def ends(statements: list) -> bool:
    """Whether every way through the statements ends in a return."""
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and ends(last.body) and ends(last.orelse)


class Renamer(ast.NodeTransformer):
    def __init__(self, inliner: Inliner, members: bool, reads: dict, nodes: set, calls: list):
        self.inliner, self.members, self.reads, self.nodes = inliner, members, reads, nodes
        self.calls = calls

    def visit_Call(self, node):
        """A call of a global that `calls` names ((callable, maker) pairs) as the maker writes
        it: maker(args, keywords, name) gives the new call, or None to keep this one; its args
        are renamed first, and name(value, preferred) is the name exec is handed value under."""
        target = self.callee(node.func) if self.calls else None
        for callable_, maker in self.calls:
            if target is callable_:
                args = [self.visit(a) for a in node.args]
                keywords = [self.visit(k) for k in node.keywords]
                new = maker(args, keywords, self.handed_name)
                if new is not None:
                    return ast.copy_location(new, node)
                break
        return self.generic_visit(node)

    def callee(self, func: ast.expr):
        """What a call's func names, when it is a global (`UOp`) or a function kept in a global
        class (`UOp.const`, a static method), else None."""
        if isinstance(func, ast.Name) and func.id not in self.inliner.locals:
            return self.inliner.global_value(func.id)
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        if func.value.id in self.inliner.locals:
            return None
        owner = self.inliner.global_value(func.value.id)
        if not isinstance(owner, type) or func.attr not in vars(owner):
            return None
        value = vars(owner)[func.attr]
        return value.__func__ if isinstance(value, staticmethod) else value

    def handed_name(self, value, preferred: str) -> ast.Name:
        return ast.Name(self.inliner.handed_over(preferred, value), ast.Load())

    def visit_Name(self, node):
        return self.inliner.name(node)

    def visit_Attribute(self, node):
        return (
            self.cached_read(node)
            or (self.members and self.inliner.member(node))
            or self.generic_visit(node)
        )

    def cached_read(self, node: ast.Attribute) -> ast.expr | None:
        """`x.vmin`, a read that `reads` names (attribute -> (the cache's field, the property
        that fills it, the index read in it or None)) of a parameter bound to a node, as
        `(x._range or x.range)[0]`: the cache read at once, the property called only when it
        is empty (matcher.cached_reads says when that is the same)."""
        value = node.value
        if not (isinstance(value, ast.Name) and value.id in self.nodes) or node.attr not in (
            self.reads
        ):
            return None
        field, filled_by, index = self.reads[node.attr]
        name = self.inliner.name(value).id
        cached = ast.Attribute(ast.Name(name, ast.Load()), field, ast.Load())
        asked = ast.Attribute(ast.Name(name, ast.Load()), filled_by, ast.Load())
        read = ast.BoolOp(ast.Or(), [cached, asked])
        if index is not None:
            read = ast.Subscript(read, ast.Constant(index), ast.Load())
        return ast.copy_location(read, node)


def located(module: ast.Module) -> ast.Module:
    """module, with a line given to each statement made without one: ast.unparse reads a
    statement's line (to find a type comment), and no expression's, so the rest of what
    ast.fix_missing_locations would walk is left alone."""
    for node in statements(module):
        if isinstance(node, ast.stmt) and not hasattr(node, "lineno"):
            node.lineno = 1
    return module


def inline_rule(
    r,
    bound: dict,
    prefix: str,
    names: dict,
    members: bool = False,
    reads: dict | None = None,
    calls: list | None = None,
) -> tuple[list, list] | None:
    """(lines, locals) that stand for calling r's function with the nodes `bound` names
    (pattern name -> expression), or None when the call stays: each parameter bound first,
    then the body. The caller sets the body's locals to None after it, so that a node the
    body built and let go is freed when the function would have freed it (or hash consing
    could find it later, where the plain matcher builds it again with a new id). With members,
    each `Ops.CONST` of the body (a member of a global enum, read by its name) is written as
    the member itself, handed to exec by name, so that running it reads a name and no
    attribute."""
    tree = function_tree(r.fn)
    if tree is None:
        return None
    given = {**bound, "ctx": "ctx"} if r.wants_ctx else bound
    arguments = tree.args
    parameters = [a.arg for a in arguments.args]
    if (
        arguments.posonlyargs or arguments.vararg or arguments.kwonlyargs or arguments.kwarg
        or arguments.defaults or set(parameters) != set(given)
    ):  # fmt: skip
        return None
    # the tree walked once: the body's nodes, then those of the rest (parameters, decorators)
    in_body = [node for statement in tree.body for node in ast.walk(statement)]
    rest = (tree.args, *tree.decorator_list, *([tree.returns] if tree.returns else []))
    every = [tree, *in_body, *(node for part in rest for node in ast.walk(part))]
    try:
        check_nodes(in_body)
        inliner = Inliner(r.fn, every, prefix, names, r.name)
        body = tree.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        names_of = (n for n in every if isinstance(n, ast.Name))
        stored = {n.id for n in names_of if not isinstance(n.ctx, ast.Load)}
        nodes = set(bound) - stored  # the parameters that hold a node of the pattern throughout
        # first: the matcher's own names stay as they are
        renamer = Renamer(inliner, members, reads or {}, nodes, calls or [])
        statements = inliner.block([renamer.visit(s) for s in body])
    except NotInlined:
        return None
    lines = [f"{prefix}_{name} = {given[name]}" for name in parameters]
    lines += ast.unparse(located(ast.Module(statements, []))).splitlines()
    if len(lines) > MAX_LINES:
        return None
    return lines or ["pass"], sorted(inliner.renamed - {f"{prefix}_{name}" for name in parameters})
