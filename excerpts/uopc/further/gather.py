def term(base: UOp, k: int) -> UOp:
    # x*1 -> x and x*-1 -> -x here already, so the strict rules meet the form they leave
    k = wrap32(k)
    return base if k == 1 else -base if k == -1 else base * const(k)


def gather(terms: dict, constant: int) -> UOp:
    """The sum again: the terms with a coefficient other than 0, by age, the constant last."""
    parts = [term(base, k) for base, k in sorted(terms.items(), key=lambda t: t[0].id) if wrap32(k)]
    if wrap32(constant) or not parts:
        parts.append(const(wrap32(constant)))
    result = parts[0]
    for part in parts[1:]:
        result = result + part
    return result


