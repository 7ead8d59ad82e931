"""The quicker walk against the plain one (uopc/speed/walk.py against uopc/rewrite.py).

Both walks rewrite the same graph, one after the other, each with the same compiled matcher
over the same rules, its fired counter emptied first. Every question either walk asks is logged
with its answer, each node named by its id; a node built during a walk is named by its place in
the order of building (the first walk's nodes are freed before the second begins, so the second
builds them again under new ids). The two logs, results, fired counters and outcomes must be
the same: the same questions in the same order builds the same nodes in the same order. Each
graph is also walked under a limit drawn below its number of questions, where both walks must
stop at the same step with the same message (which names the rules fired so far) or both
finish. Seeds are fixed.
"""

import os
import random

import pytest
from test_compiled import GENERATORS, looping_rules

from uopc import I32, Ops, ParamArg, UOp, rewrite, speed, uop
from uopc.fold import FOLD, INLINE
from uopc.further import FURTHER
from uopc.rewrite import PatternMatcher, RewriteLimit
from uopc.speed import walk as quick
from uopc.speed.matcher import ByDtype, CompiledMatcher
from uopc.symbolic import FAST, SYM
from uopc.textfmt import dumps
from verify.generators import gen_index_program

FULL = os.environ.get("UOPC_FULL") == "1"
GRAPHS = 3_000 if FULL else 300  # random programs of each generator and rule set
STRICT = FOLD + INLINE + SYM
RULE_SETS = {"strict": STRICT, "fast": STRICT + FAST, "further": STRICT + FURTHER}
WALKS = {"plain": speed.plain(rewrite, "_rewrite_to_fixed_point"), "quick": quick.walk}


MATCHERS: dict = {}  # one compiled matcher per rule list: compiling one takes milliseconds


def fresh_matcher(rules) -> CompiledMatcher:
    """The compiled matcher of rules, its fired counter emptied and its own functions restored
    (those of each op, and those of each op and dtype, which the quick walk calls)."""
    key = tuple(id(r) for r in rules)
    if key not in MATCHERS:
        pm = CompiledMatcher(rules)
        MATCHERS[key] = (pm, rules, pm.compiled, pm.by_dtype)  # the list kept: ids its own
    pm, _rules, pm.compiled, pm.by_dtype = MATCHERS[key]
    pm.fired.clear()  # the generated functions count into this very Counter
    return pm


def walk_record(walk, rules, root, limit=None):
    """(questions and answers, outcome, fired) of one walk over root with a fresh matcher."""
    pm = fresh_matcher(rules)
    base = next(uop._ids) + 1  # every node built from here on belongs to this walk

    def name(u):
        return u.id if u.id < base else ("built", u.id - base)

    log = []

    def logged(function):
        def ask(u, ctx):
            answer = function(u, ctx)
            log.append((name(u), None if answer is None else name(answer)))
            return answer

        return ask

    # the plain walk asks through pm.rewrite, which calls pm.compiled[op]; the quick walk calls
    # the function of the node's op and dtype itself (pm.by_dtype, made for pm.compiled):
    # logging both kinds logs both walks' questions
    _made, by_dtype = pm.by_dtype
    pm.compiled = {op: logged(function) for op, function in pm.compiled.items()}
    pm.by_dtype = (pm.compiled, {
        op: ByDtype({dtype: logged(f) for dtype, f in functions.items()}, pm.compiled[op])
        for op, functions in by_dtype.items()
    })  # fmt: skip
    try:
        result = walk(root, pm, None, limit)
        outcome = (name(result), text(result))
    except RewriteLimit as stop:
        outcome = ("stopped", str(stop))
    return log, outcome, dict(pm.fired)


def text(root) -> str:
    try:
        return dumps(root)
    except Exception as error:  # a graph the text format cannot hold
        return f"(not printable: {type(error).__name__})"


def same_walks(rules, root, where: str, limit=None) -> int:
    """Walk root both ways; assert the records agree; the number of questions asked."""
    plain = walk_record(WALKS["plain"], rules, root, limit)
    quick = walk_record(WALKS["quick"], rules, root, limit)
    for part, a, b in zip(("questions", "outcome", "fired"), plain, quick, strict=True):
        assert a == b, f"{where}, limit {limit}: the {part} differ\n{text(root)}"
    return len(plain[0])


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("generator", list(GENERATORS))
def test_random_graphs_walk_alike(name, generator):
    for seed in range(GRAPHS):
        r = random.Random(seed)
        root = GENERATORS[generator](r, seed)
        where = f"{name} rules, {generator} seed {seed}"
        asked = same_walks(RULE_SETS[name], root, where)
        same_walks(RULE_SETS[name], root, where, limit=r.randrange(asked + 1))


def test_a_long_chain_walks_alike():
    """Constants folded into a deep chain: quiet leaves first and last, replacements at once."""
    x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    node = x
    for c in range(1, 3_001):
        node = node + c if c % 3 else c + node
    asked = same_walks(STRICT, node, "a chain of 3,000 additions")
    for limit in (0, 1, 2, asked // 2, asked - 1):
        same_walks(STRICT, node, "a chain of 3,000 additions", limit=limit)


def test_a_loop_stops_alike_when_the_limit_scales():
    """Two rules that undo each other: both walks pass the base limit, scale it by the graph's
    size, and stop at the same step with the same message."""
    rules = looping_rules()
    start = gen_index_program(random.Random(0))[0]
    plain = walk_record(WALKS["plain"], rules, (start + 1) * 3)
    quick = walk_record(WALKS["quick"], rules, (start + 1) * 3)
    assert plain[1][0] == "stopped" and "more than" in plain[1][1], plain[1]
    assert plain == quick


def test_a_matcher_that_asks_in_its_own_way_is_walked_plainly(monkeypatch):
    """The twin walks quickly a matcher whose rewrite is the compiled one, and hands to the
    plain walk one whose class overrides rewrite (a tracer), so that it is asked every question."""
    calls = []
    monkeypatch.setattr(quick, "walk", lambda *a: calls.append("quick") or a[0])
    monkeypatch.setattr(quick, "plain_walk", lambda *a: calls.append("plain") or a[0])

    class Tracer(PatternMatcher):
        def rewrite(self, u, ctx=None):
            return super().rewrite(u, ctx)

    x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    for pm in (PatternMatcher(STRICT), CompiledMatcher(STRICT), Tracer(STRICT)):
        quick._rewrite_to_fixed_point(x + 0, pm, None, None)
    assert calls == ["quick", "quick", "plain"]


def test_the_count_as_steps_need_ends_at_count_nodes():
    """walk.Count counts root's nodes only as far as a walk's steps need: its limit is never
    one that the steps passed while nodes are left, and once all are counted, it is the plain
    limit, from count_nodes."""
    for seed in range(40):
        root = gen_index_program(random.Random(seed))[0]
        root = root * 3 + root  # a graph that shares nodes
        count = quick.Count(root)
        for steps in (0, rewrite.BASE_LIMIT, rewrite.BASE_LIMIT + 150, rewrite.BASE_LIMIT + 250):
            assert count.limit_beyond(steps) >= min(steps, rewrite._limit_for(root))
        assert count.limit_beyond(10**9) == rewrite._limit_for(root)
        assert len(count.seen) == rewrite.count_nodes(root) and not count.stack


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_a_walk_handed_to_the_loop_at_any_depth_walks_alike(monkeypatch, depth):
    """walk calls itself down to MAX_DEPTH and hands a deeper node's graph to loop: with the
    depth made small, every graph is walked partly each way, and must still walk alike."""
    monkeypatch.setattr(quick, "MAX_DEPTH", depth)
    for seed in range(0, GRAPHS, 3):
        r = random.Random(seed)
        root = GENERATORS["gen_program"](r, seed)
        where = f"strict rules, gen_program seed {seed}, handed over past depth {depth}"
        asked = same_walks(STRICT, root, where)
        same_walks(STRICT, root, where, limit=r.randrange(asked + 1))


def test_a_walk_from_a_deep_stack_is_the_loop_and_walks_alike():
    """Called with too few frames left below the recursion limit, walk uses loop alone."""
    import sys

    def deep(n, root, where):
        if n:
            return deep(n - 1, root, where)
        return same_walks(STRICT, root, where)

    def depth():
        frame, n = sys._getframe(1), 0
        while frame is not None:
            frame, n = frame.f_back, n + 1
        return n

    # leave 150 frames: fewer than walk wants for its calls (MAX_DEPTH + HEADROOM), enough for
    # the loop and whatever watches the calls (the build's recording hook adds frames of its own)
    left = 150
    assert left < quick.MAX_DEPTH + quick.HEADROOM
    calls = sys.getrecursionlimit() - depth() - left
    fresh_matcher(STRICT)  # compiled here, where parsing the rules' source has room
    for seed in range(20):
        root = gen_index_program(random.Random(seed))[0]
        deep(calls, root, f"a deep stack, seed {seed}")


def test_a_walk_leaves_nothing_for_the_collector():
    """Every node a walk built and let go is freed when the walk returns, not by a later
    collection: a later walk would find it alive and build fewer nodes, under other ids."""
    import gc

    # Only the objects made during the walk are searched, not the whole heap (a worker's, late in
    # the suite, is large: two full collections a seed took seconds). The collection before
    # the walk empties the young generations (what survives it moves to the oldest), and none
    # runs during the walk, so everything the walk built is in generation 0, which the
    # collection after it searches whole.
    for seed in range(20):
        root = gen_index_program(random.Random(seed))[0]
        pm = fresh_matcher(STRICT)
        gc.collect(1)
        gc.disable()
        try:
            quick.walk(root, pm, None, None)
            assert gc.collect(0) == 0, f"seed {seed}: the walk left reference cycles"
        finally:
            gc.enable()


def test_the_room_for_calls_is_the_frames_left_below_the_limit(monkeypatch):
    """room_for_calls says whether its caller can call MAX_DEPTH + HEADROOM frames deep without
    a RecursionError: with CPython's count, exactly so, on either side of the boundary; without
    it, it asks for the frame that many below the limit, as walk did before (that misses C
    functions between Python frames, which the limit counts too; pytest has some)."""
    import sys

    wanted = quick.MAX_DEPTH + quick.HEADROOM

    def at(n, question):
        return at(n - 1, question) if n else question()

    def chain(k):  # k frames, each calling the next
        return chain(k - 1) if k > 1 else True

    def fits():  # stands where walk does
        try:
            return chain(wanted)
        except RecursionError:
            return False

    def asked():  # the frame itself asked for, from where walk stands
        try:
            sys._getframe(sys.getrecursionlimit() - wanted)
        except ValueError:
            return True
        return False

    def room():  # stands where walk does, and asks as walk does
        return quick.room_for_calls()

    count = quick.get_recursion_depth
    if count is None:
        pytest.skip("this Python has no _testinternalcapi.get_recursion_depth")
    boundary = sys.getrecursionlimit() - wanted - count()
    answers = []
    for n in range(boundary - 10, boundary + 10):
        expected = at(n, fits)
        assert at(n, room) == expected, n
        monkeypatch.setattr(quick, "get_recursion_depth", None)
        assert at(n, room) == at(n, asked), n
        monkeypatch.setattr(quick, "get_recursion_depth", count)
        answers.append(expected)
    assert True in answers and False in answers  # both sides of the boundary were asked
