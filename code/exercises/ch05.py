"""Chapter 5 · Hash consing: the answers to exercises 5.1-5.5.

5.5 plants its bug with the test suite's own machinery (shared.py: a private copy of `uopc` with
one edit, the rule unit tests run on it in a child process); the working tree is never touched.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch05.
"""

import gc
import weakref

from uopc import F32, I32, UOp
from uopc.rewrite import graph_rewrite
from uopc.textfmt import ParseError, dumps, loads
from verify.generators import param

from answers import check, exercise, out
from shared import control_run, failures_of, fresh_matcher, layer_verdicts, tree_size


@exercise("ch05", "5.1", "(p+q)*(p+q) against (p+q)*(q+p)")
def ex_5_1():
    p, q = param(0, F32), param(1, F32)
    first, second = (p + q) * (p + q), (p + q) * (q + p)
    check(first is not second, "already one node before simplify")
    matcher = fresh_matcher()
    after_first, after_second = graph_rewrite(first, matcher), graph_rewrite(second, matcher)
    check(after_first is after_second is first, "one node after simplify, and it is the first")
    check(graph_rewrite(q + p, fresh_matcher()) is p + q, "canonical order makes q+p into p+q")
    check(matcher.fired == {"canonical order": 1}, f"rules fired: {dict(matcher.fired)}")
    out("before: different nodes; after simplify: one node, (p+q)*(p+q)")
    out(f"rules that fired: {dict(matcher.fired)} (q+p became p+q)")


@exercise("ch05", "5.2", "p = p + p, 30 times")
def ex_5_2():
    p = param(0, I32)
    for _ in range(30):
        p = p + p
    nodes = len(p.toposort())
    check(nodes == 30 + 1, f"{nodes} nodes: one param and one add per doubling")
    check(tree_size(p) == 2**31 - 1, "tree size from the sizes of the srcs")
    out(f"{nodes} nodes; as a tree 2**31 - 1 = {2**31 - 1:,} (formula, no tree built)")


@exercise("ch05", "5.3", "drop every reference, collect, build again")
def ex_5_3():
    def build():
        x = param(5, F32)  # slot 5 and these constants are used nowhere else in this program
        return (x * 3.25 + 0.125).max(x)

    root = build()
    old_id, old = root.id, weakref.ref(root)
    del root
    gc.collect()
    check(old() is None, "the old root is still alive")
    check(all(node.id != old_id for node in UOp.live_nodes()), "the table still holds the root")
    new = build()
    check(new.id != old_id and new.id > old_id, "the new root's id is not larger")
    out("the old root is gone after gc.collect(); the rebuilt root has a new, larger id")


@exercise("ch05", "5.4", "value=1 on an f32 constant, value=1.5 on an i32 one")
def ex_5_4():
    x, f = param(0, I32), param(1, F32)
    text = dumps(f * 1.0 + x.cast(F32) * UOp.const(1).cast(F32))
    check("value=1.0" in text and "dtype=i32 value=1" in text, "both constants in the text")
    float_edited = text.replace("value=1.0", "value=1", 1)
    check(loads(float_edited) is loads(text), "value=1 on f32 loads to the same node")
    check(dumps(loads(float_edited)) == text, "written back, value=1 is value=1.0 again")
    int_edited = text.replace("dtype=i32 value=1", "dtype=i32 value=1.5", 1)
    line = 1 + int_edited.splitlines().index(
        next(ln for ln in int_edited.splitlines() if "value=1.5" in ln)
    )
    try:
        loads(int_edited)
        message = None
    except ParseError as error:
        message = str(error)
    wanted = f"line {line}: bad value: invalid literal for int() with base 10: '1.5'"
    check(message == wanted, f"message {message!r}")
    out("value=1 on an f32 constant: the same node")
    out(f"value=1.5 on an i32 constant: ParseError: {message}")


@exercise("ch05", "5.5", "the constant key made float(arg), under the rule unit tests")
def ex_5_5():
    from verify import mutants

    (mutant,) = [m for m in mutants.BOOK if m.name == "hash cons key ignores sign of zero"]
    check("float(arg)" in mutant.replacement, f"the planted bug is {mutant.replacement!r}")
    check(not control_run()["A"][0], "the unit layer fails on the unmutated copy")
    caught, why = layer_verdicts(mutant, "A")["A"]
    check(caught, "the unit layer passes with the float(arg) key")
    failures = failures_of(why)
    division = [line for line in failures if line.startswith("1/0 (float):")]
    check(division == ["1/0 (float): got const -inf, wanted const inf"], f"{division}")
    out(f"the unit layer fails: {why.split(' | ')[0].removeprefix('AssertionError: ')[:-1]}")
    out(f"first failure printed: {failures[0]}")
    out(f"the signed-zero division: {division[0]}")
