"""Rules beyond the book: an opt-in set of further integer rewrite rules, off by default.

Relies on `rewrite`, `compiled`, `ranges` (through a node's `vmin`, `vmax` and `safe`) and
`symbolic`. Invariant: like a strict rule, every rule of FURTHER returns a node that is `same`
as the node it replaces on every input (each is proved by a z3 claim of the same name); the
set is only off by default so that every output of the book stays as it is.
"""

from .compiled import matcher
from .rewrite import graph_rewrite
from .symbolic import default
from .uop import UOp

FURTHER: list = []

# --8<-- [start:further_matcher]
further = default + matcher(FURTHER)  # compiled unless UOPC_MATCHER=plain


def simplify_further(root: UOp) -> UOp:
    """Rewrite root with the strict rules and the further rules."""
    return graph_rewrite(root, further)


# --8<-- [end:further_matcher]
