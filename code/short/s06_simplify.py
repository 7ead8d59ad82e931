"""Step 6: simplify rewrites a graph into a smaller one that computes the same values."""

from book.protocol import state
from uopc import I32, Ops, ParamArg, UOp
from uopc.symbolic import default, simplify
from uopc.textfmt import dumps

x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
before = ((x * 1) + 0) * (UOp.const(2) + 3)
after = simplify(before)

nodes_before, nodes_after = len(before.toposort()), len(after.toposort())
print("nodes before:", nodes_before)
print("nodes after: ", nodes_after)
print("rules that fired:", ", ".join(sorted(default.fired)))  # default: the strict rule list
print(dumps(after), end="")
if after is not x * 5 or set(default.fired) != {"x*1", "x+0 (int)", "const fold"}:
    raise SystemExit("expected x * 5, by the three rules that step 6 names")

state("s06_nodes_before", nodes_before, "nodes of ((x*1)+0)*(2+3) before simplify")
state("s06_nodes_after", nodes_after, "nodes of the same graph after simplify")
