def semantics_vs_numpy() -> int:
    """Every case against NumPy; returns the number of checks."""
    checks, max_gap, problems = 0, {}, []
    for case in CASES:
        count = case_size()
        problems += compare(case, count, numpy_results(case, count), "numpy", max_gap)
        checks += len(inputs(case, count))
    fail_on(problems, "NumPy")
    gaps = {op.name: max_gap.get(op, 0) for op in INEXACT}
    print(f"semantics vs numpy: {checks} checks passed; max ulp difference for exp2/log2: {gaps}")
    protocol.report("semantics-numpy", "numpy", checks)
    for op, gap in gaps.items():
        protocol.state(f"ulp_max_{op.lower()}_numpy", gap, f"max ulp gap of {op} from NumPy")
    return checks


