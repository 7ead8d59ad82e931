"""Step 3: the renderer writes one C statement per node of the body."""

from uopc import F32, CallArg, Ops, ParamArg, UOp
from uopc.render import render

x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
y = UOp(Ops.PARAM, arg=ParamArg(1, F32))
zero = UOp.const(0.0)
call = UOp(Ops.CALL, (x + y, zero, zero), CallArg("add"))

source = render(call)
print(source[source.index("float add") :], end="")  # the prelude helpers are left out
