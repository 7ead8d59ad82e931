"""Step 6: simplify rewrites a graph into a smaller one that computes the same values."""

import _here

from uopc import I32, Ops, ParamArg, UOp
from uopc.symbolic import simplify
from uopc.textfmt import dumps

x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
before = ((x * 1) + 0) * (UOp.const(2) + 3)
after = simplify(before)

print("nodes before:", len(before.toposort()))
print("nodes after: ", len(after.toposort()))
print(dumps(after), end="")
if after is not x * 5:
    raise SystemExit("expected x * 5")
