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


