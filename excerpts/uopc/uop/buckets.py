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


