def sanitize() -> int:
    """Every program's C run under ASan and UBSan; returns the number of sanitized calls."""
    units = []
    for bounded in (False, True):
        call = value_call(every_op(bounded), f"every_op_{'bounded' if bounded else 'wide'}")
        label = f"every op, {'x in [0, 100]' if bounded else 'no ranges'}"
        units.append(Unit(label, call, dumps(call, label), inputs=value_inputs(call)))
    for seed in range(protocol.size(8, 150)):
        units += value_units(seed)
    for seed in range(protocol.size(4, 50)):
        units += memory_units(seed)
    # one file per CHUNK functions: a quick run is one compilation; a full run's files are
    # compiled two at a time (one huge file compiles more slowly than its parts, and serially)
    harnesses = [build_harness(units[k : k + CHUNK]) for k in range(0, len(units), CHUNK)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(lambda h: run_harness(h, flags()), harnesses))
    checks = sum(require_clean(h, o) for h, o in zip(harnesses, outcomes, strict=True))
    print(
        f"sanitize: {len(units)} functions in {len(harnesses)} executables, "
        f"{checks} sanitized calls, no report"
    )
    protocol.report("pipeline", "sanitize", checks)
    return checks


