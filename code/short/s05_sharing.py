"""Step 5: a node is built once; a graph that reuses nodes is much smaller than its tree."""

from book.protocol import state
from uopc import F32, Ops, ParamArg, UOp

x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
y = UOp(Ops.PARAM, arg=ParamArg(1, F32))
shared = (x + y) is (x + y)
print("x + y is x + y:", shared)

DOUBLINGS = 18
p = x
for _ in range(DOUBLINGS):
    p = p + p
nodes = len(p.toposort())
tree = 2 ** (DOUBLINGS + 1) - 1  # computed, never built
print(f"p = p + p, {DOUBLINGS} times: nodes in the graph", nodes)
print(f"as a tree it would have 2**{DOUBLINGS + 1} - 1 =", tree)
if not shared or nodes != DOUBLINGS + 1:
    raise SystemExit("hash consing must give one node per structure")

state("s05_doublings", DOUBLINGS, "times p = p + p is applied")
state("s05_nodes", nodes, "nodes in the graph of p after the doublings")
state("s05_tree_nodes", tree, "nodes p would have as a tree")
