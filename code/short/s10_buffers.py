"""Step 10: a kernel that loads from two buffers and stores into a third."""

from book.protocol import state
from uopc import F32, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.interp import run_call
from uopc.render import render
from uopc.runtime import Buffer, Program
from uopc.textfmt import dumps

kernel = Builder()
a, b, out = (kernel.buffer(slot, F32, 3) for slot in range(3))
for i in range(3):
    out.store(i, a.load(i) + b.load(i))
args = [UOp(Ops.BUFFER, arg=ParamArg(slot, Ptr(F32, 3))) for slot in range(3)]
call = make_call(kernel.body(), args, "add3")

SHOWN = 15  # lines of the text form printed
lines = dumps(call).splitlines()
print("\n".join(lines[:SHOWN]))
print(f"... {len(lines) - SHOWN} more lines")
source = render(call)
print(source[source.index("void add3") :], end="")

buffers = [Buffer(F32, 3).copyin([1, 2, 3]), Buffer(F32, 3).copyin([10, 20, 30]), Buffer(F32, 3)]
Program(call)(*buffers)
lists = [[1.0, 2.0, 3.0], [10.0, 20.0, 30.0], [0.0, 0.0, 0.0]]
run_call(call, lists)
print("C:          ", buffers[2].tolist())
print("interpreter:", lists[2])
if not buffers[2].tolist() == lists[2] == [11.0, 22.0, 33.0]:
    raise SystemExit("both runs must give [11.0, 22.0, 33.0]")

state("s10_text_lines_shown", SHOWN, "lines of the kernel's text form printed")
state("s10_text_lines", len(lines), "lines of the kernel's whole text form")
