def select(claims, only=None, quick=False):
    """The claims to run: the quick ones only if asked; with `only`, those of one rule (or
    one claim title), else those whose title contains it."""
    if quick:
        claims = [cl for cl in claims if cl.quick]
    if only:
        chosen = [cl for cl in claims if only in (cl.name, cl.title)]
        claims = chosen or [cl for cl in claims if only in cl.title]
    return claims


def run(claims, timeout=TIMEOUT, int_timeout=INT_TIMEOUT, out=print, blocks=None):
    """Settle each claim, printing one line per claim under its group's header; with blocks
    (BLOCKS), a block marker before each group or rule named there."""
    results, blocks, started = [], blocks or {}, set()
    for group, members in itertools.groupby(claims, key=lambda cl: cl.group):
        members = list(members)
        width = max(len(cl.title) for cl in members)
        if group in blocks:
            out(protocol.block_line(blocks[group]))
        out(f"--- {group} ---")
        for claim in members:
            if claim.name in blocks and claim.name not in started:
                started.add(claim.name)
                out(protocol.block_line(blocks[claim.name]))
            result = solve(claim, int_timeout if claim.theory == "int" else timeout)
            results.append(result)
            mark = "ok" if result.as_expected else "FAIL"
            settled = f"expected {claim.expect:<8} {result.outcome:<9} [{result.seconds:.1f}s]"
            out(f"{mark:<4} {claim.title:<{width}}  {settled} {result.detail}".rstrip())
            for line in (f"note: {claim.note}" if claim.note else "", result.problem):
                if line:
                    out(f"     {line}")
    return results


