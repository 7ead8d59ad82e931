# (op, dtypes of the srcs, arg): each case is one C function, run on every combination of specials
OP_CASES = [
    *((op, (F32,), None) for op in (Ops.NEG, Ops.RECIP, Ops.EXP2, Ops.LOG2)),
    (Ops.NEG, (I32,), None),
    *((Ops.ADD, (d, d), None) for d in (I32, F32)),
    *((op, (d, d), None) for op in (Ops.MUL, Ops.MAX, Ops.CMPLT, Ops.CMPNE) for d in SPECIALS),
    *((op, (I32, I32), None) for op in (Ops.FLOORDIV, Ops.FLOORMOD)),
    *((Ops.WHERE, (BOOL, d, d), None) for d in SPECIALS),
    *((Ops.CAST, (source,), target) for source in SPECIALS for target in SPECIALS),
]
