def alias() -> int:
    """The refusal, the opt-in and the result it gives; returns the number of checks."""
    call = crosswise()
    check = Checks(call)
    aliased, separate = interpreter_predictions(call)
    check(separate == SEPARATE, f"run_call on distinct lists gave {separate}")
    check(aliased == ALIASED, f"run_call on one list twice gave {aliased}")
    check(aliased != separate, "aliasing should change this kernel's result")

    program, one = Program(call), Buffer(F32, 2).copyin(START)
    check.refuses(lambda: program(one, one), "0 and 1")
    check.refuses(lambda: execute(call, {0: one, 1: one}), "0 and 1")
    check(one.tolist() == START, "a refused call must not have run")
    three = crosswise(3)
    check.refuses(lambda: execute(three, {0: one, 2: one}), "0 and 2")

    program(one, one, allow_alias=True)  # the opt-in runs the C as written
    check(one.tolist() == aliased, f"Program with allow_alias gave {one.tolist()}")
    again = Buffer(F32, 2).copyin(START)
    execute(call, {0: again, 1: again}, allow_alias=True)
    check(again.tolist() == aliased, f"execute with allow_alias gave {again.tolist()}")

    a, b = Buffer(F32, 2).copyin(START), Buffer(F32, 2).copyin(START)
    program(a, b)  # equal contents, distinct memory: no refusal
    check(b.tolist() == separate and a.tolist() == START, f"distinct buffers gave {b.tolist()}")
    out = execute(call, {0: START, 1: START})  # a list is copied into a fresh Buffer each time
    check(out[1].tolist() == separate, f"one list given twice gave {out[1].tolist()}")

    print(f"alias: {check.count} checks passed; one buffer twice gives {aliased}, not {separate}")
    protocol.report("pipeline", "alias", check.count)
    return check.count


