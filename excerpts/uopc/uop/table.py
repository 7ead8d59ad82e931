class _Ref(weakref.ref):
    """A weak reference that remembers its key, so that its callback can drop its entry:
    what weakref.WeakValueDictionary does inside, with one reference per node and no more."""

    __slots__ = ("key",)


def _forget(bucket: dict, ref: _Ref) -> None:
    """Called when a node is freed: its entry goes at once, and with it the table's hold on
    the key (for most nodes, the node's own src tuple)."""
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


