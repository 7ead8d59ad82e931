"""Step 9: declared ranges let simplify remove index arithmetic, unless a product may wrap."""

from book.protocol import state
from uopc import I32, Ops, ParamArg, UOp
from uopc.interp import evaluate  # to try big*4 at the border where it starts to wrap
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

# Which values of big make big*4 wrap? Every one from the first whose product passes the
# largest i32 to the top of big's range; for each, (big*4)//4 is not big.
first = (2**31 - 1) // 4 + 1
wrapping = big.vmax - first + 1
quotient = (big * 4) // 4
for value in (first - 1, first, big.vmax):  # the last that fits, the first and last that wrap
    fits = evaluate(quotient, {2: value}) == value
    print(f"big = {value}: (big*4)//4 == big: {fits}")
    if fits != (value < first):
        raise SystemExit(f"expected big*4 to wrap exactly from big = {first}")
print(f"inputs at which big*4 wraps: {wrapping} (big from {first} to {big.vmax})")

state("s09_wrap_inputs", wrapping, "values of big in [0, 2**30] at which big*4 wraps")
state("s09_wrap_first", first, "the smallest value of big at which big*4 wraps")
