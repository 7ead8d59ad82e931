def shrink(root: UOp, still_fails, batch: bool = False, chunk: int = 64) -> UOp:
    """The smallest graph found greedily from root on which still_fails stays true.

    still_fails(u) -> bool. An exception inside it counts as "does not fail": a layer that
    wants exceptions to count turns them into failures itself. With batch=True, still_fails
    gets a list of up to `chunk` candidates and returns a list of bools (one C compile per
    list instead of one per candidate); the smallest failing candidate of the first list
    with any failure is kept.
    """
    current = root
    while True:
        options = candidates(current)
        groups = [options[i : i + chunk] for i in range(0, len(options), chunk)]
        for group in groups if batch else [[option] for option in options]:
            verdicts = _ask(still_fails, group) if batch else [_ask(still_fails, group[0])]
            failing = [u for u, fails in zip(group, verdicts, strict=True) if fails]
            if failing:
                current = min(failing, key=measure)
                break
        else:
            return current


