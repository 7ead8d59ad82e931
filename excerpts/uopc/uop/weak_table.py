class _Ref(weakref.ref):
    """A weak reference that remembers its key, so that its callback can drop its entry."""

    __slots__ = ("key",)


class WeakTable:
    """Every live node by (family, key), each held weakly: the hash-consing table.

    When a node is freed, its reference's callback removes its entry at once, so a dead
    node never keeps its srcs alive through its key. (This is what WeakValueDictionary does;
    its reference objects are built by Python code, which made building a node twice as
    slow, so the table is written here with a reference type that Python builds in C.)
    """

    __slots__ = ("shelves", "removers")

    def __init__(self):
        self.shelves: dict[object, dict] = {}  # family -> {key: weak reference to the node}
        self.removers: dict[object, object] = {}  # family -> the callback for that shelf

    def get(self, family, key):
        shelf = self.shelves.get(family)
        ref = None if shelf is None else shelf.get(key)
        return None if ref is None else ref()

    def put(self, family, key, node) -> None:
        shelf = self.shelves.get(family)
        if shelf is None:
            shelf = self.shelves[family] = {}
            self.removers[family] = _remover(shelf)
        ref = _Ref(node, self.removers[family])
        ref.key = key
        shelf[key] = ref

    def nodes(self) -> list:
        refs = [ref for shelf in self.shelves.values() for ref in list(shelf.values())]
        return [node for node in (ref() for ref in refs) if node is not None]

    def __len__(self) -> int:
        return len(self.nodes())


def _remover(shelf: dict):
    def remove(ref):
        if shelf.get(ref.key) is ref:  # not replaced since by a newer node with that key
            del shelf[ref.key]

    return remove


