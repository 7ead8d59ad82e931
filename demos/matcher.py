"""Patterns against nodes, and how many rules each op is tried against (Chapter 7).

    python demos/matcher.py

Two quoted blocks, each after a marker line `@@ block NAME` that the book build strips:
patterns (eleven patterns tried on raw nodes, never simplified) and rule-counts (the sizes of the
rule lists and of the matcher's per-op index, all computed). Every line is the same on every
run. A printed claim that turns out false (a match where the chapter says none, a count that
differs from the compiler's specification) makes the program exit with a non-zero status.
"""

from _common import block, claim, finish, state

import re
import sys

from book.protocol import about
from uopc import F32, I32, Ops, ParamArg, UOp, speed
from uopc.fold import FOLD, INLINE
from uopc.rewrite import ANY, UPat
from uopc.speed.matcher import compiled_functions
from uopc.symbolic import SYM, default, fast
from uopc.textfmt import infix

# ---------------------------------------------------------------------------------------------
# Block 1: patterns against nodes
# ---------------------------------------------------------------------------------------------


def show_pattern(pattern: UPat) -> str:
    """A pattern as the chapter writes it: ADD(x, cvar c), ADD[f32](...), CONST(arg=7) as k.

    Patterns are a few levels deep at most, so this one recursion is safe (graphs never are).
    """
    if pattern.op is None and pattern.dtype is None and pattern.src is None and pattern.arg is ANY:
        return pattern.name or "_"  # a bare variable
    ops = "|".join(op.name for op in pattern.op or ())
    if pattern.op == (Ops.CONST,) and pattern.arg is ANY and pattern.src is None:
        text = "cvar"
    else:
        text = ops + ("" if pattern.dtype is None else f"[{','.join(map(str, pattern.dtype))}]")
        if pattern.arg is not ANY:
            text += f"(arg={pattern.arg!r})"
        if pattern.src is not None:
            text += "(" + ", ".join(show_pattern(src) for src in pattern.src) + ")"
    if pattern.name is None:
        return text
    return f"{text} {pattern.name}" if text == "cvar" else f"{text} as {pattern.name}"


def show_binding(node: UOp) -> str:
    return f"param#{node.arg.slot}" if node.op is Ops.PARAM else node.op.name.lower()


def pattern_cases():
    a = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    b = UOp(Ops.PARAM, arg=ParamArg(1, I32))
    f = UOp(Ops.PARAM, arg=ParamArg(2, F32))
    var, cvar = UPat.var, UPat.cvar
    x_plus_x = UPat(Ops.ADD, src=(var("x"), var("x")))
    x_plus_c = UPat(Ops.ADD, src=(var("x"), cvar("c")))
    float_x_plus_c = UPat(Ops.ADD, dtype=F32, src=(var("x"), cvar("c")))
    nested = UPat(Ops.MUL, src=(UPat(Ops.ADD, src=(var("x"), cvar("c1"))), cvar("c2")))
    seven = UPat(Ops.CONST, arg=7, name="k")
    add = lambda left, right: UOp(Ops.ADD, (left, right))  # noqa: E731 (raw: no rule runs)
    return [  # pattern, node, whether the chapter says it matches
        (x_plus_x, add(a, a), True),
        (x_plus_x, add(a, b), False),
        (x_plus_c, add(a, UOp.const(5)), True),
        (x_plus_c, add(a, b), False),
        (float_x_plus_c, add(a, UOp.const(5)), False),
        (float_x_plus_c, add(f, UOp.const(5.0)), True),
        (nested, UOp(Ops.MUL, (add(a, UOp.const(3)), UOp.const(4))), True),
        (x_plus_x, add(add(a, b), add(a, b)), True),
        (x_plus_x, add(add(a, b), add(b, a)), False),  # no canonical order: raw nodes
        (seven, UOp.const(7), True),
        (seven, UOp.const(8), False),
    ]


def show_patterns():
    block("patterns")
    names = {0: "a", 1: "b", 2: "f"}
    for number, (pattern, node, expected) in enumerate(pattern_cases(), 1):
        store: dict = {}
        matched = pattern.match(node, store)
        claim(matched == expected, f"pattern {number}")
        bindings = ", ".join(f"{name} = {show_binding(bound)}" for name, bound in store.items())
        verdict = f"match     {bindings}" if matched else "no match"
        print(f"{number:>2}  {show_pattern(pattern):<30} {infix(node, names):<22} {verdict}")


# ---------------------------------------------------------------------------------------------
# Block 2: how many rules each op is tried against
# ---------------------------------------------------------------------------------------------

# The compiler's specification (compiler.md, sections 12.1 and 12.2): the printed numbers are
# computed from the matchers; these only check them.
SPEC_SIZES = (30, 1, 1, 28, 5)
SPEC_BY_OP = {
    Ops.ADD: 7, Ops.MUL: 8, Ops.NEG: 4, Ops.CMPLT: 3, Ops.FLOORDIV: 5, Ops.FLOORMOD: 6,
    Ops.WHERE: 6, Ops.CAST: 3, Ops.CONST: 0, Ops.LOAD: 0, Ops.CALL: 1,
}  # fmt: skip
SPEC_FIRST_EIGHT = [
    "const fold", "inline call", "canonical order", "range is a point", "max by range",
    "x*1", "x*-1", "x+(-0.0) (float)",
]  # fmt: skip


def show_rule_counts():
    block("rule-counts")
    extra = len(fast.rules) - len(default.rules)
    sizes = (len(default.rules), len(FOLD), len(INLINE), len(SYM), extra)
    lists = f"fold {len(FOLD)}, inline {len(INLINE)}, symbolic {len(SYM)}"
    print(f"default matcher: {len(default.rules)} rules ({lists})")
    print(f"fast math adds {extra} rules")
    print("rules each op is tried against (by_op):")
    by_op = {op: len(default.by_op[op]) for op in SPEC_BY_OP}
    for op, count in by_op.items():
        print(f"  {op.name:<9} {count}")
    first_eight = [r.name for r in default.rules[:8]]
    print("the first eight rules, in order:")
    for four in (first_eight[:4], first_eight[4:]):
        print("  " + ", ".join(four))
    agrees = sizes == SPEC_SIZES and by_op == SPEC_BY_OP and first_eight == SPEC_FIRST_EIGHT
    print(f"all of these agree with the compiler's specification: {agrees}")
    claim(agrees, "rule counts")
    state_rule_counts(sizes, by_op)


def state_rule_counts(sizes, by_op):
    """The counts chapter 7 quotes; the busiest op is still tried against fewer than all."""
    total, fold, inline, symbolic, extra = sizes
    state("matcher_rules", total, "rules of the default matcher")
    state("matcher_rules_fold", fold, "of them, the fold list's")
    state("matcher_rules_inline", inline, "of them, the inline list's")
    state("matcher_rules_symbolic", symbolic, "of them, the symbolic list's")
    state("matcher_fast_extra", extra, "rules fast math adds to the default matcher")
    for op, count in by_op.items():
        state(f"matcher_by_op_{op.name.lower()}", count, f"rules the index tries on a {op.name}")
    busiest = max(by_op.values())
    state("matcher_by_op_most", busiest, "the most rules the index tries on any one op")
    saving = about(total / busiest)
    state("matcher_index_saving_about", saving, "all rules over the busiest op's, 2 digits")
    claim(fold + inline + symbolic == total and busiest < total, "rule counts add up")


def show_compiled_code():
    """What the compiled matcher writes for NEG: the plain matcher's rule list, as one function."""
    block("compiled-neg")
    claim(speed.installed(), "the speed overlay is installed: every matcher is compiled")
    compiled_functions(default)  # the matcher's tables, each function written when asked for
    text = default.source[Ops.NEG]  # (NEG's written here)
    print(text)
    names = [r.name for r in default.by_op[Ops.NEG]]
    in_order = [text.index(f"# {name}\n") for name in names]
    claim(in_order == sorted(in_order), "the generated code tries NEG's rules in their order")
    # chapter 7 reads the listing as bodies written in, const fold's loop with its `else`
    claim(not CALL.search(text), "NEG's rules are written in, none of them called")
    claim("for r0_src in r0_u.src:" in text and "        else:" in text, "const fold's for-else")
    for name, matcher in (("default", default), ("fast", fast)):
        called, rules = rules_called(matcher)
        state(f"matcher_{name}_rules", len(rules), f"the rules of the {name} matcher")
        state(f"matcher_{name}_called", len(called), f"of them, rules the {name} matcher calls")
        claim(2 * len(called) < len(rules), f"most of the {name} matcher's rules are written in")


CALL = re.compile(r"\bfn\d+\(")  # a call of a rule's function in the generated code


def rules_called(matcher) -> tuple[set, set]:
    """The names of matcher's rules whose function the generated code calls, and of all its
    rules: the code of each op is cut at its `# rule name` lines."""
    compiled_functions(matcher)
    called, rules = set(), {r.name for rs in matcher.by_op.values() for r in rs}
    for text in (matcher.source[op] for op in Ops):  # (each op's text written when asked for)
        for piece in re.split(r"\n    # ", text)[1:]:
            name, body = piece.split("\n", 1)
            if CALL.search(body):
                called.add(name)
    return called, rules


def main() -> int:
    show_patterns()
    show_rule_counts()
    show_compiled_code()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
