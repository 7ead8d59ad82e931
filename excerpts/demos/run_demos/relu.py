def demo_relu():
    block("demo8")
    print("demo 8: relu end to end")
    x, y = param(0, F32), param(1, F32)
    zero = UOp.const(0.0)
    relu = UOp(Ops.CALL, ((x * y + 1.0).max(zero), zero, zero), CallArg("relu"))
    source = render(relu)
    print(source[source.index("float relu(") :], end="")
    compiled = runtime.Program(relu)
    for arguments, expected in (((2.0, 3.0), 7.0), ((-2.0, 3.0), 0.0)):
        c_value = compiled(*arguments)
        interpreted = evaluate(relu.src[0], dict(enumerate(arguments)))
        print(f"relu{arguments}: compiled {c_value}, evaluate {interpreted}")
        claim(same(c_value, expected) and same(interpreted, expected), f"demo 8: relu{arguments}")


