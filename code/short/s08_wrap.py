"""Step 8: i32 addition wraps around, in the interpreter and in the compiled C alike."""

from uopc import I32, INT_MAX, INT_MIN, CallArg, Ops, ParamArg, UOp
from uopc.interp import evaluate
from uopc.runtime import Program

x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
inc = Program(UOp(Ops.CALL, (x + 1, UOp.const(0)), CallArg("inc")))

interpreted, compiled = evaluate(x + 1, {0: INT_MAX}), inc(INT_MAX)
print("Python: INT_MAX + 1 =", INT_MAX + 1)
print("interpreter: x + 1 at INT_MAX =", interpreted)
print("compiled inc(INT_MAX) =", compiled)
if not interpreted == compiled == INT_MIN:
    raise SystemExit("x + 1 at INT_MAX must wrap to INT_MIN")
