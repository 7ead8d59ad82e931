# (case, call, arguments, the result with its Python type)
PROGRAM_CASES = [
    ("f32", scalar_call(x * y + 1.0, F32, F32), (2.0, 3.0), 7.0),
    ("i32 wraps", scalar_call(i + 1, I32), (2**31 - 1,), -(2**31)),
    ("i32 floor", scalar_call(i // j, I32, I32), (-7, 2), -4),
    ("bool", scalar_call(x.lt(y), F32, F32), (1.0, 2.0), True),
    ("bool false", scalar_call(x.lt(y), F32, F32), (2.0, 1.0), False),
    ("no arguments", scalar_call(UOp.const(5)), (), 5),
]
