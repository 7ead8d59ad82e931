"""Patterns, the pattern matcher and the rewrite engine.

Relies on `ops` and `uop`. Invariants: a matcher tries a node only against the rules indexed
under its op, in list order, and the first rule that returns a new node wins; the engine
finishes every distinct node once (sharing survives) and walks the graph with an explicit
stack, never with recursion.
"""

import collections
import inspect
from typing import NamedTuple

from .ops import Ops
from .uop import UOp, arg_key


class _Any:
    def __repr__(self) -> str:
        return "ANY"


ANY = _Any()  # the arg of a pattern that accepts every arg


class RewriteLimit(RuntimeError):
    """More rewrite steps than the limit: almost always two rules undoing each other."""


def _as_tuple(value):
    if value is None:
        return None
    return tuple(value) if isinstance(value, tuple | list | set | frozenset) else (value,)


# --8<-- [start:upat]
class UPat:
    """A pattern: every field that is given must hold for the node it matches."""

    __slots__ = ("op", "dtype", "src", "arg", "arg_key", "name")

    def __init__(self, op=None, dtype=None, src=None, arg=ANY, name=None):
        self.op = _as_tuple(op)
        self.dtype = _as_tuple(dtype)
        self.src = None if src is None else tuple(src)
        self.arg = arg
        self.arg_key = None if arg is ANY else arg_key(arg)  # compared as the table compares
        self.name = name

    @staticmethod
    def var(name=None, dtype=None) -> "UPat":
        return UPat(dtype=dtype, name=name)

    @staticmethod
    def cvar(name=None, dtype=None) -> "UPat":
        return UPat(Ops.CONST, dtype=dtype, name=name)

    # --8<-- [end:upat]
    # --8<-- [start:match]
    def match(self, u: UOp, store: dict) -> bool:
        """Check op, dtype, arg, then srcs left to right, then the name binding.

        Recursive, unlike every walk over a graph: a pattern is only a few levels deep."""
        if self.op is not None and u.op not in self.op:
            return False
        if self.dtype is not None and u.dtype not in self.dtype:
            return False
        if self.arg is not ANY and arg_key(u.arg) != self.arg_key:
            return False
        if self.src is not None:
            if len(u.src) != len(self.src):
                return False
            for pattern, src in zip(self.src, u.src, strict=True):
                if not pattern.match(src, store):
                    return False
        if self.name is not None:
            return store.setdefault(self.name, u) is u  # a name used twice binds one node
        return True

    # --8<-- [end:match]

    def __repr__(self) -> str:
        ops = None if self.op is None else "|".join(op.name for op in self.op)
        return f"UPat({ops}, name={self.name!r})"


# --8<-- [start:rule]
class Rule(NamedTuple):
    name: str
    pat: UPat
    fn: object
    wants_ctx: bool


def rule(name: str, pat: UPat, registry: list):
    """Decorator: append the rule `name` to `registry`, leave the function unchanged."""

    def register(fn):
        wants_ctx = "ctx" in inspect.signature(fn).parameters
        registry.append(Rule(name, pat, fn, wants_ctx))
        return fn

    return register


# --8<-- [end:rule]


# --8<-- [start:matcher]
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


# --8<-- [end:matcher]


# --8<-- [start:rewrite_limit]
# The default limit on questions to the matcher: a base that stops two rules undoing each other
# on a small graph in well under a second, plus an allowance per node of the input graph, so
# that a rule set without a loop finishes on any graph that fits in memory (the strict rules
# ask about 3 questions per node).
BASE_LIMIT = 100_000
LIMIT_PER_NODE = 100


def _limit_for(root: UOp) -> int:
    return BASE_LIMIT + LIMIT_PER_NODE * count_nodes(root)


def count_nodes(root: UOp) -> int:
    """len(root.toposort()), without putting the nodes in order (a third of the time)."""
    seen, stack = {root}, [root]
    while stack:
        for src in stack.pop().src:
            if src not in seen:
                seen.add(src)
                stack.append(src)
    return len(seen)


# --8<-- [end:rewrite_limit]


# --8<-- [start:graph_rewrite]
FIRST_VISIT, SRCS_DONE, REPLACEMENT_DONE = 0, 1, 2


def graph_rewrite(root: UOp, pm: PatternMatcher, ctx=None, limit: int | None = None) -> UOp:
    """Rewrite bottom-up to a fixed point: srcs first, then the node, then its replacement.

    `limit` caps the questions asked of the matcher; None scales it with root's graph."""
    return _rewrite_to_fixed_point(root, pm, ctx, limit)


# --8<-- [end:graph_rewrite]


# --8<-- [start:fixed_point_start]
def _rewrite_to_fixed_point(root, pm, ctx, limit):
    # the graph is measured only when the base is spent, so a small rewrite never pays for it
    scale_later = limit is None
    limit = BASE_LIMIT if limit is None else limit
    final: dict[UOp, UOp] = {}  # every node finished so far -> its final form
    steps = 0
    ask, quiet = pm.rewrite, pm.quiet
    stack = [(root, FIRST_VISIT, None)]
    while stack:
        node, state, extra = stack.pop()
        if state == REPLACEMENT_DONE:
            rebuilt, replacement = extra
            final[node] = final[rebuilt] = final[replacement]
            continue
        if node in final:
            continue
        # --8<-- [end:fixed_point_start]
        # --8<-- [start:fixed_point_rebuild]
        if not node.src:  # a leaf: nothing to rebuild
            rebuilt = node
        else:
            if state == FIRST_VISIT:
                unfinished = [src for src in node.src if src not in final]
                if unfinished:
                    stack.append((node, SRCS_DONE, None))
                    stack.extend([(src, FIRST_VISIT, None) for src in reversed(unfinished)])
                    continue
            # every src is finished: rebuild the node over their final forms
            new_src = tuple([final[s] for s in node.src])
            rebuilt = node if new_src == node.src else node.replace_src(new_src)
            if rebuilt in final:  # met before, under another name
                final[node] = final[rebuilt]
                continue
        # --8<-- [end:fixed_point_rebuild]
        # --8<-- [start:fixed_point_ask]
        # then ask about it; a node of an op no rule looks at is its own answer (still a step)
        replacement = None if rebuilt.op in quiet else ask(rebuilt, ctx)
        steps += 1  # counted after the question: the one that crosses the limit counts
        if steps > limit and scale_later:
            limit, scale_later = _limit_for(root), False
        if steps > limit:
            busiest = pm.fired.most_common(3)
            raise RewriteLimit(f"more than {limit} rewrite steps; busiest rules: {busiest}")
        if replacement is None:
            final[node] = final[rebuilt] = rebuilt
        else:
            stack.append((node, REPLACEMENT_DONE, (rebuilt, replacement)))
            stack.append((replacement, FIRST_VISIT, None))
        # --8<-- [end:fixed_point_ask]
    return final[root]
