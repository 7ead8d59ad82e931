def summary(results):
    """The closing lines; the last is the machine-readable CLAIMS line (verification §7.2)."""
    lines = []
    book = [r for r in results if r.claim.group in BOOK_GROUPS]
    for label, part in (("book claims", book), ("all claims", results)):
        counts = tally(part)
        outcomes = ", ".join(f"{outcome} {counts[outcome]}" for outcome in OUTCOMES)
        lines.append(f"{label}: {counts['total']}, as expected {counts['as_expected']}, {outcomes}")
    points, confirmed = sum(r.points for r in results), sum(r.confirmed for r in results)
    lines.append(
        f"checked with eval_op: {points} evaluations of proved rewrites at sample points, "
        f"{confirmed} counterexamples confirmed"
    )
    proved, refuted = coverage(results)
    strict, fast = (set(names) for names in rule_names())
    lines.append(
        f"strict rules with a proved claim: {len(proved & strict)} of {len(strict)}; "
        f"fast-math rules with a refuted claim: {len(refuted & fast)} of {len(fast)}"
    )
    total, ok = len(results), sum(r.as_expected for r in results)
    lines.append(f"CLAIMS {total} {ok} {sum(r.outcome == 'refuted' for r in results)}")
    return lines


OUTCOMES = ("proved", "refuted", "unsettled")


def tally(results) -> dict:
    """total, as_expected and one count per outcome, over some results."""
    counts = {"total": len(results), "as_expected": sum(r.as_expected for r in results)}
    return counts | {outcome: sum(r.outcome == outcome for r in results) for outcome in OUTCOMES}


def coverage(results):
    """The rule names with a claim proved as expected, and those with one refuted as expected."""
    kept = [r for r in results if r.claim.group in RULE_GROUPS and r.as_expected]
    proved = {r.claim.name for r in kept if r.outcome == "proved"}
    return proved, {r.claim.name for r in kept if r.outcome == "refuted"}


