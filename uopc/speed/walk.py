"""The twin of `rewrite._rewrite_to_fixed_point`: the same walk, without its stack where it can.

Relies on `rewrite` and `speed.matcher`. The plain walk (chapter 8) keeps a stack of its own, so
that no graph is too deep for it, and pays for it on every node (a tuple made, pushed and popped
per visit). `walk` walks a node by a call of `visit`, which calls itself for each source that
needs a walk and for a rule's replacement, in the order the plain walk pops them; past MAX_DEPTH
calls, or from a stack already near Python's recursion limit, a node's graph goes to `loop`, the
same walk with a stack, which settles a source that is a leaf of a quiet op (no rule looks at
it) where the plain walk would pop it and walks a replacement at once. Both call the compiled
function of each node's op and dtype themselves, where the plain walk goes through `rewrite`.
Python's cyclic garbage collector is paused while it runs: nodes never form reference cycles (a
src is always older than its user), so a collection during a walk finds nothing, yet each full
one scans every live node. Past BASE_LIMIT steps, the limit scales with root's graph, whose
nodes `Count` counts only as far as the steps need (the plain walk counts them all at once).

Invariant: for every graph, rule list and limit, `walk` asks the same questions in the same
order as the plain walk, so it builds the same nodes in the same order (ids included), counts
the same steps, fires the same rules and gives the same result, or the same `RewriteLimit` with
the same message (tests/test_quick_walk.py runs both side by side). A matcher whose class asks
in its own way (a tracer that overrides `rewrite`) is walked by the plain walk.
"""

import gc
import sys

from ..rewrite import BASE_LIMIT, LIMIT_PER_NODE, RewriteLimit
from ..rewrite import _rewrite_to_fixed_point as plain_walk
from ..uop import UOp
from .matcher import compiled_functions, functions_by_dtype, rewrite
from .node import BUCKETS, IS_ALU, _lock, _unlock, by_value


def _rewrite_to_fixed_point(root, pm, ctx, limit):
    """rewrite._rewrite_to_fixed_point's result, by the same questions in the same order."""
    if type(pm).rewrite is not rewrite:  # a matcher that asks in its own way
        return plain_walk(root, pm, ctx, limit)
    enabled = gc.isenabled()
    gc.disable()
    try:
        return walk(root, pm, ctx, limit)
    finally:
        if enabled:
            gc.enable()


def rebuild_two(node, a, b, new_a, new_b):
    """node.replace_src((new_a, new_b)) for a node of two srcs a and b, the commonest rebuild:
    for an ALU node without arg whose new srcs keep the old dtypes, the replace_src twin's own
    steps written out (its bucket by the op's value, the node's dtype kept); else replace_src."""
    op = node.op
    if (
        node.arg is None
        and IS_ALU[op._value_]
        and new_a.dtype is a.dtype
        and new_b.dtype is b.dtype
    ):
        key = (new_a, new_b)
        bucket = BUCKETS[op._value_]
        ref = bucket.get(key)
        found = None if ref is None else ref()
        if found is not None:
            return found
        # build_once's steps written out, as in node.new (the key is the srcs themselves, so a
        # node found under it has two srcs: no count to compare)
        _lock()
        try:
            ref = bucket.get(key)
            found = None if ref is None else ref()
            if found is not None:
                return found
            return UOp._build(op, key, None, node.dtype, bucket, key)
        finally:
            _unlock()
    return node.replace_src((new_a, new_b))


def asks_by_value(pm) -> list:
    """pm's compiled functions of each op by the op's value, each a ByDtype (dtype -> function),
    None for a quiet op (node.by_value says why), made once for each set of compiled functions
    pm holds and kept on pm."""
    own = pm.__dict__
    made = own.get("asks")
    if made is not None and made[0] is own.get("compiled"):  # (asked once per walk: kept short)
        return made[1]
    functions = compiled_functions(pm)
    asked = {op: f for op, f in functions_by_dtype(pm).items() if op not in pm.quiet}
    pm.asks = (functions, by_value(asked))
    return pm.asks[1]


class Count:
    """rewrite.count_nodes(root), counted only as far as a walk's steps need (its walk paused).

    The plain walk's limit, once it scales, is BASE_LIMIT + LIMIT_PER_NODE * count_nodes(root);
    a walk that passes BASE_LIMIT needs only to know that the limit lies beyond its steps,
    which a part of root's nodes shows (all of a long chain's 200,000 took 3% of its rewrite).
    The same walk as count_nodes, the same nodes in the end (tests/test_quick_walk.py)."""

    def __init__(self, root):
        self.seen, self.stack = {root}, [root]

    def limit_beyond(self, steps: int) -> int:
        """A limit that steps has not passed, or, once every node is counted, the limit."""
        seen, stack = self.seen, self.stack
        while stack and steps > BASE_LIMIT + LIMIT_PER_NODE * len(seen):
            for src in stack.pop().src:
                if src not in seen:
                    seen.add(src)
                    stack.append(src)
        return BASE_LIMIT + LIMIT_PER_NODE * len(seen)


def over(steps: int, limits: list, limit, root, pm) -> None:
    """Called by walk when steps passes the limit so far, limits[0]: as the plain walk, scale
    it (counting root's nodes only as far as steps needs, in the Count kept as limits[1]), and
    stop past the limit of root's whole graph."""
    if limit is None:
        if limits[1] is None:
            limits[1] = Count(root)  # made here: most walks never pass BASE_LIMIT
        limits[0] = limits[1].limit_beyond(steps)
    if steps > limits[0]:
        busiest = pm.fired.most_common(3)
        raise RewriteLimit(f"more than {limits[0]} rewrite steps; busiest rules: {busiest}")


# How deep `walk` goes by calling itself before it hands a node's graph to `loop`, and how many
# frames it leaves free below Python's recursion limit for the rules and what they call.
MAX_DEPTH = 100
HEADROOM = 200

try:  # CPython's own count of the frames in use, the one its recursion limit is checked against
    from _testinternalcapi import get_recursion_depth
except ImportError:  # (a build without CPython's internal test module)
    get_recursion_depth = None


def room_for_calls() -> bool:
    """Whether the caller's frame has MAX_DEPTH + HEADROOM frames free below the recursion
    limit. CPython's count answers at once; without it, the frame that many below the limit is
    asked for (a ValueError, raised and caught, says there is none: room), which costs as much
    as a few dozen calls of visit. The two agree on every stack of Python frames
    (tests/test_quick_walk.py)."""
    limit = sys.getrecursionlimit()
    if get_recursion_depth is not None:  # (the count includes this function's own frame)
        return get_recursion_depth() - 1 + MAX_DEPTH + HEADROOM <= limit
    try:
        sys._getframe(limit - MAX_DEPTH - HEADROOM + 1)  # (counted from the caller's frame)
    except ValueError:
        return True
    return False


def walk(root, pm, ctx, limit):
    """The quicker walk itself, for a matcher whose rewrite is the compiled one.

    Each node is walked by a call of `visit`, which calls itself for each source that needs a
    walk and for a rule's replacement: the same order as the plain walk's stack, without the
    stack (its tuples, pushes and pops cost more than the calls on graphs of a few dozen
    nodes). Past MAX_DEPTH calls deep, and on a stack already too deep for that, a node's graph
    is walked by `loop`, the same walk with a stack of its own, sharing `final` and the steps."""
    limits = [BASE_LIMIT if limit is None else limit, None]  # the limit so far, the Count
    final: dict = {}  # every node finished so far -> its final form
    ask = asks_by_value(pm)  # each op's compiled functions by dtype, called directly
    if not room_for_calls():
        loop(root, final, ask, ctx, 0, limits, limit, root, pm)
        return final[root]
    steps, cap = 0, limits[0]
    build = UOp._build  # (bound once for the walk: the twin, or the plain one when left out)

    def visit(node, depth):
        """Walk node (not yet finished) and, at once, the replacement a rule gives for it."""
        nonlocal steps, cap
        src = node.src
        rebuilt = node
        if src:
            if depth > MAX_DEPTH:
                steps = loop(node, final, ask, ctx, steps, limits, limit, root, pm)
                cap = limits[0]
                return
            count = len(src)
            if count == 2:  # the commonest case, without the loop: a, then b, as the loop below
                a, b = src
                if a not in final:
                    if a.src or ask[a.op._value_] is not None:
                        visit(a, depth + 1)
                    else:
                        steps += 1
                        if steps > cap:
                            over(steps, limits, limit, root, pm)
                            cap = limits[0]
                        final[a] = a
                if b not in final:
                    if b.src or ask[b.op._value_] is not None:
                        visit(b, depth + 1)
                    else:
                        steps += 1
                        if steps > cap:
                            over(steps, limits, limit, root, pm)
                            cap = limits[0]
                        final[b] = b
                new_a, new_b = final[a], final[b]
                if new_a is not a or new_b is not b:
                    # rebuild_two's steps written out (a call fewer for the commonest rebuild)
                    op = node.op
                    if (
                        node.arg is None
                        and IS_ALU[op._value_]
                        and new_a.dtype is a.dtype
                        and new_b.dtype is b.dtype
                    ):
                        key = (new_a, new_b)
                        bucket = BUCKETS[op._value_]
                        ref = bucket.get(key)
                        rebuilt = None if ref is None else ref()
                        if rebuilt is None:
                            _lock()
                            try:
                                ref = bucket.get(key)
                                rebuilt = None if ref is None else ref()
                                if rebuilt is None:
                                    rebuilt = build(op, key, None, node.dtype, bucket, key)
                            finally:
                                _unlock()
                    else:
                        rebuilt = node.replace_src((new_a, new_b))
                if rebuilt in final:  # met before, under another name
                    final[node] = final[rebuilt]
                    return
            else:
                for s in src:  # as the plain walk pops them: a quiet leaf is settled at once
                    if s not in final:
                        if s.src or ask[s.op._value_] is not None:
                            visit(s, depth + 1)
                        else:
                            steps += 1
                            if steps > cap:
                                over(steps, limits, limit, root, pm)
                                cap = limits[0]
                            final[s] = s
                if count == 1:
                    new_a = final[src[0]]
                    if new_a is not src[0]:
                        rebuilt = node.replace_src((new_a,))
                else:
                    new_src = tuple(map(final.__getitem__, src))  # (a list comprehension: a call)
                    if new_src != src:
                        rebuilt = node.replace_src(new_src)
                if rebuilt in final:  # met before, under another name
                    final[node] = final[rebuilt]
                    return
        functions = ask[rebuilt.op._value_]
        replacement = None if functions is None else functions[rebuilt.dtype](rebuilt, ctx)
        steps += 1
        if steps > cap:
            over(steps, limits, limit, root, pm)
            cap = limits[0]
        if replacement is None:
            final[node] = final[rebuilt] = rebuilt
            return
        if replacement not in final:
            visit(replacement, depth + 1)
        final[node] = final[rebuilt] = final[replacement]

    try:
        visit(root, 0)
    finally:
        visit = None  # (its closure holds visit itself: freed now, not by the collector)
    return final[root]


def loop(start, final, ask, ctx, steps, limits, limit, root, pm) -> int:
    """Walk start's graph (start not yet finished) with a stack, as the plain walk does, with
    fewer trips round the loop; the steps so far go in and the steps then come out.

    One long function: its speed comes from keeping the loop's names local."""
    cap = limits[0]
    stack = [(start, False, None)]  # (node, its sources are done, None) or (node, None, pair)
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
                count = len(src)
                if srcs_done:  # the last sources, left for now: quiet leaves
                    for s in src:
                        if s not in final:
                            steps += 1
                            if steps > cap:
                                over(steps, limits, limit, root, pm)
                                cap = limits[0]
                            final[s] = s
                    srcs_done = False
                else:
                    first = 0
                    while first < count:  # the first sources: finished or quiet leaves
                        s = src[first]
                        if s not in final:
                            if s.src or ask[s.op._value_] is not None:
                                break
                            steps += 1
                            if steps > cap:
                                over(steps, limits, limit, root, pm)
                                cap = limits[0]
                            final[s] = s
                        first += 1
                    if first < count:  # some source needs a walk of its own
                        last = count - 1
                        while (
                            last > first and not src[last].src and ask[src[last].op._value_] is None
                        ):
                            last -= 1
                        push((node, True, None))
                        while last > first:  # (src[last:first:-1], without the new tuple)
                            s = src[last]
                            if s not in final:
                                push((s, False, None))
                            last -= 1
                        push((src[first], False, None))
                        break
                if count == 2:
                    a, b = src
                    new_a, new_b = final[a], final[b]
                    if new_a is not a or new_b is not b:
                        rebuilt = rebuild_two(node, a, b, new_a, new_b)
                else:
                    new_src = tuple([final[s] for s in src])
                    if new_src != src:
                        rebuilt = node.replace_src(new_src)
                if rebuilt in final:  # met before, under another name
                    final[node] = final[rebuilt]
                    break
            functions = ask[rebuilt.op._value_]
            replacement = None if functions is None else functions[rebuilt.dtype](rebuilt, ctx)
            steps += 1
            if steps > cap:
                over(steps, limits, limit, root, pm)
                cap = limits[0]
            if replacement is None:
                final[node] = final[rebuilt] = rebuilt
                break
            push((node, None, (rebuilt, replacement)))
            if replacement in final:
                break
            node = replacement
    return steps
