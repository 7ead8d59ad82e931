"""Patterns, the pattern matcher and the rewrite engine.

Relies on `ops` and `uop`. Invariants: a matcher tries a node only against the rules indexed
under its op, in list order, and the first rule that returns a new node wins; the engine
finishes every distinct node once (sharing survives) and walks the graph with an explicit
stack, never with recursion.
"""

import collections
import gc
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

    __slots__ = ("op", "dtype", "src", "arg", "name", "arg_key", "op_set", "plain", "src_ops")

    def __init__(self, op=None, dtype=None, src=None, arg=ANY, name=None):
        self.op = _as_tuple(op)
        self.dtype = _as_tuple(dtype)
        self.src = None if src is None else tuple(src)
        self.arg = arg
        self.arg_key = None if arg is ANY else arg_key(arg)
        self.name = name
        # Speed only: a set for the op test, and a flag for a pattern that checks nothing but
        # binds a name, which match() handles without a call.
        self.op_set = None if op is None else frozenset(self.op)
        self.plain = op is None and dtype is None and src is None and arg is ANY
        # (position, ops) of every src that must have a given op: the matcher tests these
        # before it calls match(), since most attempts fail right there.
        self.src_ops = tuple(
            (position, pattern.op_set)
            for position, pattern in enumerate(self.src or ())
            if pattern.op_set is not None
        )

    @staticmethod
    def var(name=None, dtype=None) -> "UPat":
        return UPat(dtype=dtype, name=name)

    @staticmethod
    def cvar(name=None, dtype=None) -> "UPat":
        return UPat(Ops.CONST, dtype=dtype, name=name)

    def match(self, u: UOp, store: dict) -> bool:
        """Check op, dtype, arg, then srcs left to right, then the name binding."""
        if self.op_set is not None and u.op not in self.op_set:
            return False
        if self.dtype is not None and u.dtype not in self.dtype:
            return False
        if self.arg is not ANY and arg_key(u.arg) != self.arg_key:
            return False
        if self.src is not None:
            if len(u.src) != len(self.src):
                return False
            for pattern, src in zip(self.src, u.src, strict=True):
                if pattern.plain:
                    if pattern.name is not None and store.setdefault(pattern.name, src) is not src:
                        return False
                elif pattern.op_set is not None and src.op not in pattern.op_set:
                    return False  # the cheapest test, made here to save a call
                elif not pattern.match(src, store):
                    return False
        if self.name is not None:
            return store.setdefault(self.name, u) is u  # a name used twice binds one node
        return True

    # --8<-- [end:upat]

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


# --8<-- [end:matcher]


# --8<-- [start:graph_rewrite]
FIRST_VISIT, SRCS_DONE, REPLACEMENT_DONE = 0, 1, 2


def graph_rewrite(root: UOp, pm: PatternMatcher, ctx=None, limit: int = 1_000_000) -> UOp:
    """Rewrite bottom-up to a fixed point: srcs first, then the node, then its replacement."""
    # Nodes never form reference cycles (a src is always older than its user), so the cyclic
    # garbage collector has nothing to find here; pausing it removes its repeated scans of
    # every live node, which cost about a third of the time on large graphs.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _rewrite_to_fixed_point(root, pm, ctx, limit)
    finally:
        if paused:
            gc.enable()


def _rewrite_to_fixed_point(root, pm, ctx, limit):
    final: dict[UOp, UOp] = {}  # every node finished so far -> its final form
    steps = 0
    stack = [(root, FIRST_VISIT, None)]
    while stack:
        node, state, extra = stack.pop()
        if state == FIRST_VISIT:
            if node in final:
                continue
            unfinished = [src for src in node.src if src not in final]
            if unfinished:
                stack.append((node, SRCS_DONE, None))
                stack.extend((src, FIRST_VISIT, None) for src in reversed(unfinished))
                continue
            state = SRCS_DONE  # every src is finished already: go on with this node now
        if state == SRCS_DONE:
            if node in final:
                continue
            new_src = tuple([final[s] for s in node.src])
            rebuilt = node if new_src == node.src else UOp(node.op, new_src, node.arg)
            if rebuilt in final:  # met before, under another name
                final[node] = final[rebuilt]
                continue
            steps += 1
            if steps > limit:
                busiest = pm.fired.most_common(3)
                raise RewriteLimit(f"more than {limit} rewrite steps; busiest rules: {busiest}")
            replacement = pm.rewrite(rebuilt, ctx)
            if replacement is None:
                final[node] = final[rebuilt] = rebuilt
            else:
                stack.append((node, REPLACEMENT_DONE, (rebuilt, replacement)))
                stack.append((replacement, FIRST_VISIT, None))
        else:
            rebuilt, replacement = extra
            final[node] = final[rebuilt] = final[replacement]
    return final[root]


# --8<-- [end:graph_rewrite]
