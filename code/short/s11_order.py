"""Step 11: without AFTER edges nothing orders a load after a store; the builder adds them."""

from uopc import F32, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.interp import run_call

arg = UOp(Ops.BUFFER, arg=ParamArg(0, Ptr(F32, 3)))
buf = UOp(Ops.PARAM, arg=ParamArg(0, Ptr(F32, 3)))
store_five = UOp(Ops.STORE, (UOp(Ops.INDEX, (buf, UOp.const(0))), UOp.const(5.0)))
load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (buf, UOp.const(0))),))
copy = UOp(Ops.STORE, (UOp(Ops.INDEX, (buf, UOp.const(1))), load))
# Nothing orders the load after the store: by creation ("id") the store of 5.0 runs first, but
# the depth-first walk ("dfs") enters the sink's first src, the copy, and loads before it.
racy = make_call(UOp.sink(copy, store_five), [arg], "racy")

kernel = Builder()
mem = kernel.buffer(0, F32, 3)
mem.store(0, 5.0)
mem.store(1, mem.load(0))
ordered = make_call(kernel.body(), [arg], "ordered")

results = {}
for call in (racy, ordered):
    for order in ("id", "dfs"):
        data = [1.0, 0.0, 0.0]
        run_call(call, [data], order)
        results[call.arg.name, order] = data
        print(f"{call.arg.name:<8} order {order:<4} {data}")
if results["racy", "id"] == results["racy", "dfs"]:
    raise SystemExit("the racy program must depend on the visiting order")
if not results["ordered", "id"] == results["ordered", "dfs"] == [5.0, 5.0, 0.0]:
    raise SystemExit("the ordered program must give [5.0, 5.0, 0.0] in both orders")
