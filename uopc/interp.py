"""The reference interpreter: `evaluate` for value graphs, `run_call` for calls that use memory.

Relies on `eval_op` (and `f32` for reading inputs) from `semantics`, on the node's `toposort`,
and on the op and dtype names; it shares nothing else with the package, so it can check the
rules and the renderer instead of repeating their mistakes. Invariants: every node is computed
once, after its srcs, in a loop over a sorted list (never a recursion on the graph's depth); a
CALL's body runs with the call's argument values, never with the caller's environment; every
value that enters from outside (a parameter, a buffer element) is first made a contract value.
"""

import operator

from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VALUE_DTYPES, Ptr
from .ops import ALU, Ops
from .semantics import eval_op, f32

# ---------------------------------------------------------------------------------------------
# Values that enter from outside
# ---------------------------------------------------------------------------------------------


# --8<-- [start:normalise]
def _to_i32(value, where: str) -> int:
    number = operator.index(value)  # an int or a bool; a float is a TypeError, not truncated
    if not INT_MIN <= number <= INT_MAX:
        raise ValueError(f"{where}: {value} does not fit in int32")
    return number


def _to_bool(value, where: str) -> bool:
    # True, False, 0 or 1, as the runtime takes them: bool("false") would be True
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return bool(value)
    raise TypeError(f"{where}: a bool wants True, False, 0 or 1, got {value!r:.40}")


# dtype -> the contract value of a Python input: float32-rounded, a real bool, an int32.
NORMALISE = {
    F32: lambda value, where: f32(float(value)),
    BOOL: _to_bool,
    I32: _to_i32,
}
# --8<-- [end:normalise]

# ---------------------------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------------------------


def _refuse(node, values, context):
    raise ValueError(f"evaluate cannot run {node.op.name} (memory): use run_call")


def _param(node, values, env):
    if isinstance(node.dtype, Ptr):
        _refuse(node, values, env)
    return NORMALISE[node.dtype](env[node.arg.slot], f"slot {node.arg.slot}")


def _call(node, values, env):
    # the body sees the argument values only; a body holds no CALL, so this nests once
    arguments = {slot: values[argument] for slot, argument in enumerate(node.src[1:])}
    return evaluate(node.src[0], arguments)


def _alu(node, values, context):
    return eval_op(node.op, node.dtype, [values[s] for s in node.src], node.arg)


# --8<-- [start:evaluate]
# op -> function of (node, values so far, env); an op not listed is memory and is refused.
EVALUATE = {
    Ops.CONST: lambda node, values, env: node.arg,
    Ops.PARAM: _param,
    Ops.CALL: _call,
    **{op: _alu for op in ALU},
}


def evaluate(root, env: dict):
    """The value of root with env mapping each PARAM slot to a Python value."""
    values = {}
    for node in outer_nodes(root):
        values[node] = EVALUATE.get(node.op, _refuse)(node, values, env)
    return values[root]


# --8<-- [end:evaluate]


def outer_nodes(root) -> list:
    """root's toposort without the nodes reached only through a CALL's body.

    A body's PARAM may be the very node the caller also uses (hash consing), with another
    value, so a body is run apart by `_call`, never in the caller's walk.
    """
    order = root.toposort()
    if all(node.op is not Ops.CALL for node in order):
        return order
    wanted = {root}
    for node in reversed(order):  # every user of a node comes before it in this order
        if node in wanted:
            wanted.update(node.src[1:] if node.op is Ops.CALL else node.src)
    return [node for node in order if node in wanted]


# ---------------------------------------------------------------------------------------------
# run_call
# ---------------------------------------------------------------------------------------------


def _argument(run, slot: int, dtype):
    """The value of argument `slot`: a constant's value, else the caller's entry for it."""
    argument = run.call.src[1 + slot]
    if argument.op is Ops.CONST:
        return argument.arg
    if slot >= len(run.buffers):
        raise ValueError(f"run_call has no entry for argument {slot}")
    entry = run.buffers[slot]
    if isinstance(dtype, Ptr) and len(entry) != dtype.size:
        raise ValueError(
            f"argument {slot} is a list of {len(entry)}, the buffer holds {dtype.size}"
        )
    return entry if isinstance(dtype, Ptr) else NORMALISE[dtype](entry, f"slot {slot}")


# --8<-- [start:memory]
def _element(index_node, values) -> tuple:
    """The (list, position) an INDEX names, checked against the pointer's size at the access."""
    memory, position = values[index_node]
    size = index_node.dtype.size
    if not 0 <= position < size:
        raise RuntimeError(f"index {position} is outside a buffer of {size}")
    return memory, position


def _load(node, values, run):
    memory, position = _element(node.src[0], values)
    if memory[position] is None:  # C would read whatever the memory holds
        raise RuntimeError("read of memory that was never written")
    return NORMALISE[node.dtype](memory[position], f"element {position}")


def _store(node, values, run):
    memory, position = _element(node.src[0], values)
    memory[position] = values[node.src[1]]


# --8<-- [end:memory]


# --8<-- [start:run_table]
class _Run:
    """What the PARAMs of one run read: the call's arguments and the caller's entries."""

    def __init__(self, call, buffers):
        self.call, self.buffers = call, buffers


# op -> function of (node, values so far, run); the value ops are evaluate's.
RUN = {
    **EVALUATE,
    Ops.PARAM: lambda node, values, run: _argument(run, node.arg.slot, node.dtype),
    Ops.ALLOC: lambda node, values, run: [None] * node.dtype.size,  # fresh, unwritten
    Ops.INDEX: lambda node, values, run: (values[node.src[0]], values[node.src[1]]),
    Ops.AFTER: lambda node, values, run: values[node.src[0]],  # only fixes the order
    Ops.LOAD: _load,
    Ops.STORE: _store,
    Ops.SINK: lambda node, values, run: None,
}

# Both orders put every node after its srcs: a src is built, and so numbered, before its user.
ORDERS = {
    "id": lambda body: sorted(body.toposort(), key=lambda node: node.id),
    "dfs": lambda body: body.toposort(),  # the order of the C statements
}
# --8<-- [end:run_table]


# --8<-- [start:run_call]
def run_call(call, buffers: list, order: str = "id"):
    """Run call's body; buffers[i] is the list for pointer argument i, updated in place.

    Returns the body's value, or None for a body without one (a SINK of stores).
    """
    if not isinstance(order, str) or order not in ORDERS:
        raise ValueError(f"unknown order {order!r}: use 'id' or 'dfs'")
    if call.op is not Ops.CALL:
        raise ValueError(f"run_call needs a CALL, got {call.op.name}")
    if isinstance(call.src[0].dtype, Ptr):  # as render refuses it: C returns no buffer
        raise ValueError(f"a call cannot return a pointer ({call.src[0].op.name} body)")
    body, run, values = call.src[0], _Run(call, buffers), {}
    for node in ORDERS[order](body):
        values[node] = RUN.get(node.op, _refuse)(node, values, run)
    return values[body] if body.dtype in VALUE_DTYPES else None


# --8<-- [end:run_call]
