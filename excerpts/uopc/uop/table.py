class _Ref(weakref.ref):
    """A weak reference that remembers its key, so that its callback can drop its entry:
    what weakref.WeakValueDictionary does inside, with one reference per node and no more."""

    __slots__ = ("key",)


def _forget(bucket: dict, ref: _Ref) -> None:
    """Called when a node is freed: its entry goes at once, and with it the table's hold on
    the key (for most nodes, the node's own src tuple). Under the table's lock (below), so that
    another thread cannot enter a newer node with that key between the test and the delete."""
    with TABLE_LOCK:
        if bucket.get(ref.key) is ref:  # not replaced since by a newer node with that key
            del bucket[ref.key]


class _Bucket(dict):
    """The live nodes of one op, by key, each held weakly. `forget` (the callback of their
    references) is made once per bucket, so a reference needs to remember only its key."""

    def __init__(self):
        super().__init__()
        self.forget = functools.partial(_forget, self)


# Two buckets per op, so that the key can be the node's own src tuple: one tuple
# (op, src, arg key) per node, as a single table would need, was a sixth of a graph's memory.
TABLE: dict = {op: _Bucket() for op in Ops}  # nodes without arg (most), by their src
ARG_TABLE: dict = {op: _Bucket() for op in Ops}  # the others, by arg key or (src, arg key)


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


