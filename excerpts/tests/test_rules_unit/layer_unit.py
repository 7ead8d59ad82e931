def layer_unit() -> int:
    """Every case and every point check; returns the check count, raises on any failure."""
    failures, count = [], 0
    for case in CASES:
        try:
            check_case(*case)
        except AssertionError as error:
            failures.append(str(error))
        count += 1
    for name, build, inputs in POINTS:
        try:
            count += check_points(name, build, inputs)
        except AssertionError as error:
            failures.append(str(error))
    if failures:
        raise AssertionError(f"{len(failures)} unit failures:\n" + "\n".join(failures))
    return count


