def semantics_vs_c() -> int:
    """Every case against the C reference; returns the number of checks."""
    checks, max_gap, problems = 0, {}, []
    for case in CASES:
        count = case_size()
        problems += compare(case, count, c_results(case, count), "C", max_gap)
        checks += len(inputs(case, count))
    fail_on(problems, "the C reference")
    gaps = {op.name.lower(): max_gap.get(op, 0) for op in INEXACT}
    print(f"semantics vs C:     {checks} checks passed; max ulp difference for exp2f/log2f: {gaps}")
    protocol.report("semantics-c", "c", checks)
    for op, gap in gaps.items():
        protocol.state(f"ulp_max_{op}_c", gap, f"max ulp gap of {op.upper()} from C")
    return checks


