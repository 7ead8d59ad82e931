"""Step 5: a node is built once; a graph that reuses nodes is much smaller than its tree."""

import _here

from uopc import F32, Ops, ParamArg, UOp

x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
y = UOp(Ops.PARAM, arg=ParamArg(1, F32))
shared = (x + y) is (x + y)
print("x + y is x + y:", shared)

p = x
for _ in range(18):
    p = p + p
nodes = len(p.toposort())
print("p = p + p, 18 times: nodes in the graph", nodes)
print("as a tree it would have 2**19 - 1 =", 2**19 - 1)  # computed, never built
if not shared or nodes != 19:
    raise SystemExit("hash consing must give one node per meaning")
