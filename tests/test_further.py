"""The further integer rules (uopc/further.py): off by default, right, and firing where meant.

- Off by default: `simplify` is the book's matcher (fold and SYM, nothing of FURTHER), its
  results on the benchmark's 300 index expressions are those of a matcher built here from the
  book's lists, and no program of the short path or of the demos (but the benchmark) imports
  the set.
- Cases: every rule of FURTHER has a case where it fires and one where it must not (its guard
  refuses), each with the result `simplify_further` must give; point checks compare the
  original and the result at the inputs where a guard matters (wraps, INT_MIN, negative
  divisors).
- The verification layers with the set on: the sound, special, exhaustive and overflow layers
  of tests/test_pipeline.py run with `simplify_further` in place of `simplify` (their own
  programs and sizes; the numbers they state for the book are not stated from these runs).
- The z3 claims of the set (tests/proofs.py --further): each as expected, one proved per rule.
- The command line: `uopc simplify --further` (and with --stats).
"""

import contextlib
import functools
import heapq
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import test_pipeline

from uopc import I32, INT_MAX, INT_MIN, Ops, ParamArg, UOp
from uopc.dtypes import F32
from uopc.fold import FOLD, INLINE, fold
from uopc.further import FURTHER, further, nodes_under_one, simplify_further
from uopc.interp import evaluate
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.semantics import same
from uopc.symbolic import SYM, default, simplify
from uopc.textfmt import dumps, infix
from verify.generators import gen_index_program

ROOT = Path(__file__).resolve().parents[1]
C = UOp.const


def param(slot, vmin=None, vmax=None, dtype=I32):
    return UOp(Ops.PARAM, (), ParamArg(slot, dtype, vmin, vmax))


x, y = param(0), param(1)  # no declared range: every i32 value
i, j, k = param(0, 0, 15), param(1, 0, 3), param(2, 0, 7)
big = param(2, 0, 2**30)  # big*4 may wrap
four = param(1, 0, 4)  # one past what i*4 + four < 8 -> i < 2 allows
f = param(1, dtype=F32)
FIRE, KEEP, SAME = True, False, None

# ---- off by default -------------------------------------------------------------------------


def bench_expressions():
    """The benchmark's 300 index expressions (demos/bench_graphs.py builds the same graphs)."""
    ranges = ((0, 7), (0, 7), (0, 7))
    return [gen_index_program(random.Random(seed), ranges)[0] for seed in range(300)]


def test_default_matcher_is_the_books():
    further_names = {r.name for r in FURTHER}
    assert not further_names & {r.name for r in default.rules}
    assert further.rules[: len(default.rules)] == default.rules  # the strict set comes first
    assert further.rules[len(default.rules) :] == FURTHER


def test_simplify_unchanged_on_the_benchmark_expressions():
    books = fold + PatternMatcher(SYM)  # built here from the book's lists
    before = dict(default.fired)
    for root in bench_expressions():
        assert simplify(root) is graph_rewrite(root, books), dumps(root)
    fired = {name for name, count in default.fired.items() if count > before.get(name, 0)}
    assert fired and not fired & {r.name for r in FURTHER}


def test_no_book_program_uses_the_set():
    programs = [*ROOT.glob("code/short/*.py"), *ROOT.glob("demos/*.py")]
    users = {p.name for p in programs if "uopc.further" in p.read_text(encoding="utf-8")}
    assert programs and users <= {"bench.py", "bench_graphs.py", "bench_tinygrad.py"}, users


def test_further_leaves_fewer_nodes_on_the_benchmark_expressions():
    roots = bench_expressions()
    book = [simplify(root) for root in roots]
    more = [simplify_further(root) for root in roots]
    assert sum(len(u.toposort()) for u in more) < sum(len(u.toposort()) for u in book)
    distinct = [len({n for u in results for n in u.toposort()}) for results in (book, more)]
    assert distinct[1] < distinct[0]


# ---- cases: (name, rule, fires, build, result) ------------------------------------------------

# fmt: off
CASES = [
    ("(i//4)*4 + i%4", "(x//c)*c+x%c", FIRE, lambda: (i // 4) * 4 + i % 4, lambda: i),
    ("((x//4)%8)*4 + x%4", "(x//c)*c+x%c", FIRE, lambda: ((x // 4) % 8) * 4 + x % 4,
     lambda: x % 32),
    ("(x//4)*-4 + -(x%4)", "(x//c)*c+x%c", FIRE, lambda: (x // 4) * -4 + -(x % 4), lambda: -x),
    ("(x//4)*3 + x%4", "(x//c)*c+x%c", KEEP, lambda: (x // 4) * 3 + x % 4, SAME),
    ("((x//2)%-3)*2 + x%2", "(x//c)*c+x%c", KEEP, lambda: ((x // 2) % -3) * 2 + x % 2, SAME),
    ("x + x", "x+x", FIRE, lambda: x + x, lambda: x * 2),
    ("x + y", "x+x", KEEP, lambda: x + y, SAME),
    ("x*3 + x*5", "like terms", FIRE, lambda: x * 3 + x * 5, lambda: x * 8),
    ("(x*3 + y) + x*-3", "like terms", FIRE, lambda: (x * 3 + y) + x * -3, lambda: y),
    ("-(x*4 + 8)", "like terms", FIRE, lambda: -(x * 4 + 8), lambda: x * -4 + -8),
    ("x*3 + y*5", "like terms", KEEP, lambda: x * 3 + y * 5, SAME),
    ("(x*3)*y", "(x*c)*y", FIRE, lambda: (x * 3) * y, lambda: (x * y) * 3),
    ("(-x)*y", "(x*c)*y", FIRE, lambda: (-x) * y, lambda: -(x * y)),
    ("x*y", "(x*c)*y", KEEP, lambda: x * y, SAME),
    ("(x%12)//4", "(x%(c1*c2))//c1", FIRE, lambda: (x % 12) // 4, lambda: (x // 4) % 3),
    ("(x%4)//-2", "(x%(c1*c2))//c1", KEEP, lambda: (x % 4) // -2, SAME),
    ("(x%10)//4", "(x%(c1*c2))//c1", KEEP, lambda: (x % 10) // 4, SAME),
    ("(i*2)%6", "(x*c1)%c2", FIRE, lambda: (i * 2) % 6, lambda: (i % 3) * 2),
    ("(x*2)%6, x*2 may wrap", "(x*c1)%c2", KEEP, lambda: (x * 2) % 6, SAME),
    ("(i*6 + k)//-3", "sum//c by terms", FIRE, lambda: (i * 6 + k) // -3,
     lambda: i * -2 + k // -3),
    ("(i*-8 + k + i*4)//-4", "sum//c by terms", FIRE, lambda: (i * -8 + k + i * 4) // -4,
     lambda: i + k // -4),
    ("(x*6 + y)//-2, may wrap", "sum//c by terms", KEEP, lambda: (x * 6 + y) // -2, SAME),
    ("(i*18 + k*18)%-2", "sum%c by terms", FIRE, lambda: (i * 18 + k * 18) % -2, lambda: C(0)),
    ("(i*6 + k)%-3", "sum%c by terms", FIRE, lambda: (i * 6 + k) % -3, lambda: k % -3),
    ("(x*4 + y)%-4, may wrap", "sum%c by terms", KEEP, lambda: (x * 4 + y) % -4, SAME),
    ("x != x", "x!=x (int)", FIRE, lambda: x.ne(x), lambda: C(False)),
    ("x != y", "x!=x (int)", KEEP, lambda: x.ne(y), SAME),
    ("f != f (float)", "x!=x (int)", KEEP, lambda: f.ne(f), SAME),
    ("i + 3 < 5", "x+c<n", FIRE, lambda: (i + 3).lt(5), lambda: i.lt(2)),
    ("x + 1 < 0, may wrap", "x+c<n", KEEP, lambda: (x + 1).lt(0), SAME),
    ("i*4 + j < 8", "a*c+b<n", FIRE, lambda: (i * 4 + j).lt(8), lambda: i.lt(2)),
    ("i*4 < 9", "a*c+b<n", FIRE, lambda: (i * 4).lt(9), lambda: i.lt(3)),
    ("i*4 + k < 8, k up to 7", "a*c+b<n", KEEP, lambda: (i * 4 + k).lt(8), SAME),
    ("i*4 + four < 8, four up to 4", "a*c+b<n", KEEP, lambda: (i * 4 + four).lt(8), SAME),
    ("big*4 < 8, may wrap", "a*c+b<n", KEEP, lambda: (big * 4).lt(8), SAME),
]
# fmt: on


def check_case(name, rule, fires, build, wanted) -> None:
    expression = build()
    before = further.fired[rule]
    got = simplify_further(expression)
    fired = further.fired[rule] > before
    want = (
        simplify(expression) if wanted is SAME else wanted()
    )  # SAME: as the book's rules leave it
    assert got is want, f"{name}: got {infix(got)}, wanted {infix(want)}"
    assert fired == fires, f"{name}: rule {rule!r} {'did not fire' if fires else 'fired'}"


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_case(case):
    check_case(*case)


def test_every_further_rule_fires_and_keeps():
    for rule in FURTHER:
        kinds = {fires for _, name, fires, _, _ in CASES if name == rule.name}
        assert kinds == {FIRE, KEEP}, f"{rule.name}: cases only for {kinds or 'nothing'}"


EDGES = (INT_MIN, INT_MIN + 1, -(2**30), -3, -1, 0, 1, 2, 2**30, INT_MAX - 1, INT_MAX)
# fmt: off
POINTS = [  # (name, expression), checked at every pair of EDGES for x and y
    ("(x//-1)*-1 + x%-1", lambda: (x // -1) * -1 + x % -1),
    ("(x//4)*4 + x%4", lambda: (x // 4) * 4 + x % 4),
    ("((x//65536)%32768)*65536 + x%65536",
     lambda: ((x // 65536) % 32768) * 65536 + x % 65536),
    ("x*3 + x*5 + y", lambda: x * 3 + x * 5 + y),
    ("-(x*INT_MIN + y)", lambda: -(x * INT_MIN + y)),
    ("(x*65536)*y", lambda: (x * 65536) * y),
    ("(x%12)//4", lambda: (x % 12) // 4),
    ("(x*2)%6", lambda: (x * 2) % 6),
    ("(x + x + y)%2", lambda: (x + x + y) % 2),
    ("(x*6 + y)//-2", lambda: (x * 6 + y) // -2),
    ("x + 1 < 0", lambda: (x + 1).lt(0)),
    ("x + INT_MIN < y", lambda: (x + INT_MIN).lt(y)),
    ("x*2 < 2", lambda: (x * 2).lt(2)),
    ("x*4 + y < 8", lambda: (x * 4 + y).lt(8)),
]
# fmt: on


@pytest.mark.parametrize("point", POINTS, ids=[point[0] for point in POINTS])
def test_points(point):
    name, build = point
    expression = build()
    result = simplify_further(expression)
    for a in EDGES:
        for b in EDGES:
            env = {0: a, 1: b}
            want, got = evaluate(expression, env), evaluate(result, env)
            assert same(want, got), f"{name} at x={a}, y={b}: {want} but {got} ({infix(result)})"


def test_long_sum_stays_linear():
    # a sum longer than MAX_TERMS is not walked again at every ADD: 20,000 additions finish
    node = x
    for c in range(1, 20_001):
        node = node + c
    assert simplify_further(node) is x + C(200_010_000)


def test_nodes_under_one_is_the_difference_of_the_two_toposorts():
    # smaller() compares what is under one graph alone; that must be exactly the set
    # difference, so it decides as len(new.toposort()) < len(old.toposort()) did
    graphs = [gen_index_program(random.Random(seed))[0] for seed in range(60)]
    graphs += [simplify(graph) for graph in graphs] + [x, x + 1, (x + 1) + y]
    rng = random.Random(31)
    for _ in range(400):
        new, old = rng.choice(graphs), rng.choice(graphs)
        if rng.random() < 0.3:  # one under the other
            new = rng.choice(old.toposort())
        under_new, under_old = set(new.toposort()), set(old.toposort())
        want = (len(under_new - under_old), len(under_old - under_new))
        assert nodes_under_one(new, old) == want, (infix(new), infix(old))


def walks_on_a_chain(links: int, monkeypatch) -> int:
    """Nodes walked by toposort and queued by smaller() while simplify_further runs on the
    chain x = max(x + p0, p1) of the given length."""
    walked = [0]
    toposort, heappush = UOp.toposort, heapq.heappush

    def counted_toposort(u, skip=None):
        order = toposort(u, skip)
        walked[0] += len(order)
        return order

    def counted_push(heap, item):
        walked[0] += 1
        heappush(heap, item)

    monkeypatch.setattr(UOp, "toposort", counted_toposort)
    queue = SimpleNamespace(heappush=counted_push, heappop=heapq.heappop)
    monkeypatch.setattr(sys.modules["uopc.further"], "heapq", queue)
    node = param(2)
    for _ in range(links):
        node = (node + x).max(y)
    simplify_further(node)
    return walked[0]


def test_like_terms_does_not_walk_the_whole_chain(monkeypatch):
    # issue 31: smaller() ran toposort on both graphs at each try of like terms, so 1,000 /
    # 2,000 / 4,000 links took 3 / 12 / 47 s. Counted in nodes walked, not in seconds: twice
    # the links must walk about twice the nodes (the toposorts walked four times as many).
    short, long = walks_on_a_chain(300, monkeypatch), walks_on_a_chain(600, monkeypatch)
    assert 0 < long < 3 * short, (short, long)


# ---- the compiled matcher against the plain one, over the further rules -----------------------


def test_compiled_agrees_with_plain():
    # as tests/test_compiled.py checks the book's rules: the two matchers asked the same
    # questions in lockstep, on every case above and on random index programs
    from test_compiled import Pair

    pair = Pair(FOLD + INLINE + SYM + FURTHER)
    for name, _rule, _fires, build, _wanted in CASES:
        pair.graph(build(), f"case {name}")
    for seed in range(300):
        pair.graph(gen_index_program(random.Random(seed))[0], f"gen_index_program seed {seed}")
    silent = {r.name for r in FURTHER} - set(pair.plain.fired)
    assert not silent, f"further rules that never fired: {sorted(silent)}"


# ---- the verification layers, with the set on -------------------------------------------------


@contextlib.contextmanager
def further_on():
    """test_pipeline's layers with simplify_further in place of simplify (and its matcher in
    place of the default one); the numbers they state for the book are left unstated."""
    names = ("simplify", "default", "state")
    saved = [getattr(test_pipeline, name) for name in names]
    test_pipeline.simplify = lambda u, fast_math=False: simplify_further(u, fast_math)
    test_pipeline.default = further
    test_pipeline.state = lambda key, value: None
    try:
        yield
    finally:
        for name, value in zip(names, saved, strict=True):
            setattr(test_pipeline, name, value)


@pytest.mark.parametrize("layer", ["sound", "special", "exhaustive", "overflow"])
def test_layer_with_further_rules(layer):
    run = getattr(test_pipeline, f"layer_{layer}")
    before = sum(further.fired[r.name] for r in FURTHER)
    with further_on():
        checks = run()
    assert checks > 0
    if layer != "special":  # the special layer's programs are mostly floats
        assert sum(further.fired[r.name] for r in FURTHER) > before, "no further rule fired"


# ---- the z3 claims ----------------------------------------------------------------------------


@functools.cache
def settled_further_claims() -> tuple:
    """(claims, results) of the further rules' z3 claims, settled once per process. They read
    no function that uopc/speed replaces (tests/proofs.py has its own terms and evaluates with
    uopc.semantics), so the overlay run and the plain run (tests/conftest.py) settle them alike:
    the second asks the same questions of the same answers instead of z3 again."""
    import proofs

    claims = proofs.further_claims()
    return claims, proofs.run(claims, out=lambda line: None)


@pytest.mark.needs_z3
@pytest.mark.xdist_group("further-claims")  # both modes on one worker (-n 2): settled once
def test_further_claims():
    pytest.importorskip("z3", reason="z3-solver is not installed (scripts/setup.sh)")
    import proofs

    claims, results = settled_further_claims()
    failed = [(r.claim.title, r.outcome, r.detail) for r in results if not r.as_expected]
    assert results and not failed, failed
    proved = {r.claim.name for r in results if r.outcome == "proved"}
    assert proved == {r.name for r in FURTHER}
    assert {r.claim.name for r in results if r.outcome == "refuted"} >= {
        "(x//c)*c+x%c",
        "(x%(c1*c2))//c1",
        "(x*c1)%c2",
        "sum//c by terms",
        "sum%c by terms",
        "x+c<n",
        "a*c+b<n",
    }  # fmt: skip  (every rule with a guard shows it is needed)
    numbers = proofs.further_numbers(results)
    stated = {key: value for key, value, _ in numbers.stated}
    assert not numbers.problems and stated["rules_further_proved"] == len(FURTHER)
    assert stated["further_claims_total"] == len(claims)


# ---- the command line -------------------------------------------------------------------------


def uopc(tmp_path, *args):
    done = subprocess.run(
        [sys.executable, "-m", "uopc", *args],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr


@pytest.mark.child_process
def test_command_line(tmp_path):
    path = tmp_path / "recombine.uop"
    path.write_text(dumps((i // 4) * 4 + i % 4), encoding="utf-8")
    assert uopc(tmp_path, "simplify", str(path)) == (0, path.read_text(encoding="utf-8"), "")
    status, out, err = uopc(tmp_path, "simplify", "--further", str(path))
    assert (status, out, err) == (0, dumps(i), "")
    status, out, err = uopc(tmp_path, "simplify", "--further", "--stats", str(path))
    program, stats = out.split("\n\n")
    assert (status, err, program + "\n") == (0, "", dumps(i))
    assert stats.splitlines()[0] == "nodes: 6 before, 1 after"
    assert re.search(r"^  \(x//c\)\*c\+x%c +1$", stats, re.MULTILINE), stats
