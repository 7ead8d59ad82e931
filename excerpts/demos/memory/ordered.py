# The same programs written in program order with the Builder, which adds the AFTER edges.
def raw_ordered(p: Mem) -> None:
    p.store(0, 5.0)
    p.store(1, p.load(0))


def war_ordered(p: Mem) -> None:
    v = p.load(0)
    p.store(0, 7.0)
    p.store(1, v)


def waw_ordered(p: Mem) -> None:
    p.store(0, 1.0)
    p.store(0, 2.0)


