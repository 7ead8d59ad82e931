"""Shrinking a failing program to a small one that still fails, for readable failure reports.

Relies on `uopc` only for building nodes. `shrink(root, still_fails)` tries, greedily, to replace
one node of the graph by one of its srcs of the same dtype or by a small constant of its dtype
(0, 1, -1, 0.0, True, ...), rebuilding the users through the normal constructor, and keeps a
change when the check still fails. Invariant: every accepted change makes the graph strictly
smaller under `measure` (fewer nodes, then fewer ops, then fewer params, then simpler
constants), so shrinking always ends; the result is a graph on which `still_fails` is true,
or the root itself if no change keeps the failure.
"""

from uopc import BOOL, F32, I32, Ops, UOp, UOpError

# The constants a node may become, simplest first (their position is their rank in `measure`).
SMALL_CONSTANTS = {
    I32: (0, 1, -1),
    F32: (0.0, 1.0, -1.0, -0.0),
    BOOL: (False, True),
}


def _rank(node: UOp) -> int:
    """The position of a constant in SMALL_CONSTANTS; any other constant ranks last."""
    choices = SMALL_CONSTANTS.get(node.dtype, ())
    for rank, value in enumerate(choices):
        # repr tells -0.0 from 0.0 and True from 1, which == does not
        if type(value) is type(node.arg) and repr(value) == repr(node.arg):
            return rank
    return len(choices)


def measure(root: UOp) -> tuple:
    """How big a graph is: nodes, then ops (neither CONST nor PARAM), params, constant ranks."""
    nodes = root.toposort()
    ops = sum(1 for n in nodes if n.op not in (Ops.CONST, Ops.PARAM))
    params = sum(1 for n in nodes if n.op is Ops.PARAM)
    ranks = sum(_rank(n) for n in nodes if n.op is Ops.CONST)
    return (len(nodes), ops, params, ranks)


def replace(root: UOp, old: UOp, new: UOp) -> UOp:
    """root with old replaced by new, every user rebuilt; UOpError when a user becomes ill typed."""
    mapped = {}
    for node in root.toposort():
        if node is old:
            mapped[node] = new
            continue
        src = tuple(mapped[s] for s in node.src)
        changed = any(a is not b for a, b in zip(src, node.src, strict=True))
        mapped[node] = UOp(node.op, src, node.arg) if changed else node
    return mapped[root]


def _replacements(node: UOp) -> list:
    """What node may become: a node below it of its own dtype (its srcs first, then deeper
    ones, so that a chain of casts can collapse), or a small constant of its dtype."""
    below = [*node.src, *reversed(node.toposort()[:-1])]
    options = [u for u in below if u.dtype == node.dtype]
    options += [UOp.const(v) for v in SMALL_CONSTANTS.get(node.dtype, ())]
    unique, seen = [], set()
    for option in options:
        if option is not node and option not in seen:
            seen.add(option)
            unique.append(option)
    return unique


def candidates(root: UOp) -> list:
    """Every graph one replacement away from root that is strictly smaller, root's end first."""
    size, found = measure(root), []
    for node in reversed(root.toposort()):  # near the root first: the largest cuts
        for new in _replacements(node):
            try:
                candidate = replace(root, node, new)
            except UOpError:
                continue  # e.g. a WHERE branch became a constant of the other dtype's user
            if measure(candidate) < size:
                found.append(candidate)
    return found


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


def _ask(still_fails, argument):
    try:
        return still_fails(argument)
    except Exception:  # a candidate that breaks the check itself is not the failure we keep
        return [False] * len(argument) if isinstance(argument, list) else False
