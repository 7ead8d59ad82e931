# One thread at a time enters a new node or removes a freed one: two threads that miss the same
# key at once would otherwise both build a node, and two live nodes would hold one structure.
# Reentrant, because a node may be freed, and its entry removed, by the thread holding the lock.
TABLE_LOCK = threading.RLock()


def live_node(bucket: dict, key, size: int):
    """The live node entered under key in bucket, or None. (A src tuple as an arg could pass
    for a key of the other kind: the number of srcs, size, tells them apart.)"""
    ref = bucket.get(key)
    node = None if ref is None else ref()
    return node if node is not None and len(node.src) == size else None


