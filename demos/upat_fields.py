"""The fields of a pattern, read from the UPat class, each with where our rules use it.

    python demos/upat_fields.py

One quoted block, upat-fields (Chapter 7), after a marker line `@@ block NAME` that the book
build strips. The fields and what each one accepts when left out come from the signature of
`UPat.__init__`; how many of simplify's rules set each field comes from walking their patterns;
the example of each field is cut from the source of one of those rules (its decorator line).
What a field asks of a node is said here in words, once per field: a field the class gains
or loses without a line here makes the program fail, and so does a field whose use the
chapter describes (no rule fixes an arg) but the rules no longer follow. Every line is the
same on every run.
"""

from _common import block, claim, finish, state

import ast
import inspect
import sys
import textwrap

from uopc.rewrite import UPat
from uopc.symbolic import default

# field -> what a pattern that gives the field asks of a node
ASKS = {
    "op": "matches a node whose op is one of those given",
    "dtype": "matches a node whose dtype is one of those given",
    "src": "matches a node with that many srcs, each matched by the pattern at its place",
    "arg": "matches a node whose arg has the key of the one given (arg_key)",
    "name": "binds the node to the name; a name met twice must bind one node",
}
PREFERRED = "x*1"  # the rule chapter 7 takes apart first: its pieces are the examples
SHORTHANDS = {"var": ("name",), "cvar": ("op", "name")}  # UPat.var and UPat.cvar set these


def fields() -> list[tuple[str, str]]:
    """(field, what it is when left out), in the constructor's order."""
    parameters = list(inspect.signature(UPat.__init__).parameters.values())[1:]  # not self
    return [(p.name, repr(p.default)) for p in parameters]


def sets(pattern: UPat, field: str) -> bool:
    """Whether pattern, or a pattern under it, gives field."""
    stack = [pattern]
    while stack:
        here = stack.pop()
        given = here.arg_key is not None if field == "arg" else getattr(here, field) is not None
        if given:
            return True
        stack.extend(here.src or ())
    return False


def pattern_source(rule) -> tuple[ast.expr, str]:
    """The pattern argument of the rule's decorator, parsed, and the source it was parsed from."""
    source = textwrap.dedent(inspect.getsource(rule.fn))
    (function,) = ast.parse(source).body
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and getattr(decorator.func, "id", "") == "rule":
            return decorator.args[1], source
    raise ValueError(f"rule {rule.name}: no @rule decorator in its source")


def piece(rule, field: str) -> str | None:
    """The text that gives field in rule's pattern source: Ops.MUL, dtype=..., var("x")."""
    pattern, source = pattern_source(rule)

    def text(node: ast.AST) -> str:  # as written in the source, quotes and all
        return ast.get_source_segment(source, node)

    for call in ast.walk(pattern):
        if not isinstance(call, ast.Call):
            continue
        called = getattr(call.func, "id", getattr(call.func, "attr", ""))
        if called in SHORTHANDS and field in SHORTHANDS[called]:
            return text(call)
        if called != "UPat":
            continue
        if field == "op" and call.args:
            return text(call.args[0])
        for keyword in call.keywords:
            if keyword.arg == field:
                return text(keyword)
    return None


def example(field: str, rules: list) -> str:
    """x*1's piece for field, or else the first rule's that has one; "" if none has."""
    ordered = sorted(rules, key=lambda rule: rule.name != PREFERRED)  # stable: x*1 first
    for rule in ordered:
        found = piece(rule, field)
        if found is not None:
            return f", as in {rule.name}: {found}"
    return ""


def main() -> int:
    block("upat-fields")
    rules = default.rules
    listed = fields()
    names = [name for name, _ in listed]
    claim(names == list(ASKS), f"UPat's fields are {names}, the words here are for {list(ASKS)}")
    signature = ", ".join(f"{name}={default_value}" for name, default_value in listed)
    print(f"UPat({signature})")
    print("A field left out accepts every node. A field given:")
    counts = {}
    for name, _ in listed:
        counts[name] = sum(sets(rule.pat, name) for rule in rules)
        print(f"  {name:<6} {ASKS.get(name, '(not described here)')}")
        used = f"given in {counts[name]} of simplify's {len(rules)} rules"
        print(f"  {'':6} {used}{example(name, rules)}")
    # chapter 7: every rule gives the op at its top (the matcher files it there), and a rule
    # reads a constant's value in its function, never in its pattern
    claim(all(rule.pat.op is not None for rule in rules), "a rule without an op at its top")
    claim(counts["arg"] == 0, "a rule of simplify fixes an arg in its pattern")
    state("upat_rules_with_arg", counts["arg"], "rules of simplify whose pattern fixes an arg")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
