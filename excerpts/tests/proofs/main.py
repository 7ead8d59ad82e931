def proofs(quick=False, only=None, timeout=TIMEOUT, int_timeout=INT_TIMEOUT, out=print):
    """The model check, then the claims; returns (results, model disagreements)."""
    count, wrong = check_model()
    out(
        f"z3 model against the contract: {count} comparisons on special values, {len(wrong)} differ"
    )
    for line in wrong[:20]:
        out(f"     {line}")
    results = run(select(all_claims(), only, quick), timeout, int_timeout, out, BLOCKS)
    out(protocol.block_line("summary"))
    for line in summary(results):
        out(line)
    return results, wrong


def proofs_layer(quick=False) -> int:
    """The proofs as a layer: the number of claims; AssertionError if any is not as expected."""
    results, wrong = proofs(quick)
    failed = [r.claim.title for r in results if not r.as_expected]
    assert not wrong and not failed, f"model differs: {wrong[:5]}; claims: {failed}"
    return len(results)


LAYERS = {"proofs": proofs_layer}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", metavar="NAME", help="the claims of one rule, or one claim")
    parser.add_argument("--quick", action="store_true", help="leave out the slow book claims")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per claim")
    parser.add_argument("--int-timeout", type=float, default=INT_TIMEOUT, help="seconds per claim")
    args = parser.parse_args(argv)
    if args.only and not select(all_claims(), args.only):
        print(f"no claim is named {args.only!r}", file=sys.stderr)
        return 2
    results, wrong = proofs(args.quick, args.only, args.timeout, args.int_timeout)
    numbers = book_numbers(results, args.quick, args.only)
    for key, value, meaning in numbers.stated:
        protocol.state(key, value, meaning)
    for problem in numbers.problems:
        print(f"proofs: FAILED: {problem}", file=sys.stderr)
    settled = results and all(r.as_expected for r in results)
    return 0 if settled and not wrong and not numbers.problems else 1


