"""Step 9: declared ranges let simplify remove index arithmetic, unless a product may wrap."""

import _here

from uopc import I32, Ops, ParamArg, UOp
from uopc.symbolic import simplify

i = UOp(Ops.PARAM, arg=ParamArg(0, I32, 0, 15))
j = UOp(Ops.PARAM, arg=ParamArg(1, I32, 0, 3))
big = UOp(Ops.PARAM, arg=ParamArg(2, I32, 0, 2**30))
e = (i * 4 + j) // 4

facts = [  # label, value, the value it must have
    ("e = (i*4 + j) // 4: vmin, vmax", (e.vmin, e.vmax), (0, 15)),
    ("simplify(e) is i", simplify(e) is i, True),
    ("(big*4).safe", (big * 4).safe, False),
    ("simplify((big*4)//4) is big", simplify((big * 4) // 4) is big, False),
]
for label, value, _ in facts:
    print(f"{label}: {value}")
if any(value != expected for _, value, expected in facts):
    raise SystemExit("a fact differs from the one expected")
