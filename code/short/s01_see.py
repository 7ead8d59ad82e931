"""Step 1: a program is a graph of nodes, and the text format shows every node once."""

from uopc import F32, CallArg, Ops, ParamArg, UOp
from uopc.textfmt import dumps, loads

x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
y = UOp(Ops.PARAM, arg=ParamArg(1, F32))
zero = UOp.const(0.0)
call = UOp(Ops.CALL, (x + y, zero, zero), CallArg("add"))

print(dumps(call), end="")
round_trip = loads(dumps(call)) is call
print("loads(dumps(call)) is call:", round_trip)
if not round_trip:
    raise SystemExit("reading the text back built a different node")
