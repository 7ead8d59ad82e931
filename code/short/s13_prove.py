"""Step 13: z3 looks for an input where the two sides of a claim differ."""

import struct

from z3 import FP, RNE, BitVec, Float32, FPVal, Not, Solver, fpAdd, fpIsNaN, fpToIEEEBV, sat

from book.protocol import state

x = BitVec("x", 32)  # every 32-bit pattern; z3's / on bit-vectors is signed and truncates
f = FP("f", Float32())


def check(name, lhs, rhs, var):
    """Print whether lhs == rhs for every input; floats compare by bits, nan left out.
    Return None when it holds, else the input z3 found."""
    solver = Solver()
    if var is f:
        solver.add(Not(fpIsNaN(f)))
        lhs, rhs = fpToIEEEBV(lhs), fpToIEEEBV(rhs)
    solver.add(lhs != rhs)
    if solver.check() != sat:
        print(f"{name:<22}true for", "every float32 except nan" if var is f else "all 2^32 inputs")
        return None
    bits = solver.model().eval(fpToIEEEBV(f) if var is f else x).as_long()  # x unsigned
    value = struct.unpack("<f", struct.pack("<I", bits))[0] if var is f else bits
    print(f"{name:<22}false: {var} = {value}")
    return value


found = [
    check("x*1 == x", x * 1, x, x),
    check("x+x == 2*x", x + x, 2 * x, x),
    check("(x/2)*2 == x", (x / 2) * 2, x, x),
    check("f + 0.0 == f", fpAdd(RNE(), f, FPVal(0.0, Float32())), f, f),
    check("f + (-0.0) == f", fpAdd(RNE(), f, FPVal(-0.0, Float32())), f, f),
]
if [value is None for value in found] != [True, True, False, False, True]:
    raise SystemExit("a verdict differs from the one expected")

state("s13_counterexample", found[2], "the x z3 found at which (x/2)*2 differs from x")
