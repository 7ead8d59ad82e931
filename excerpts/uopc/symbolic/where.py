# ---- WHERE ---------------------------------------------------------------------------------


@rule("where(const,a,b)", UPat(Ops.WHERE, src=(cvar("c"), var("a"), var("b"))), SYM)
def where_const(c, a, b):
    return a if c.arg else b  # where(True, a, b) -> a; where(False, a, b) -> b


@rule("where(c,a,a)", UPat(Ops.WHERE, src=(var("c"), var("a"), var("a"))), SYM)
def where_same(c, a):
    return a  # where(c, a, a) -> a


@rule("where(c,True,False)", UPat(Ops.WHERE, dtype=BOOL, src=(var("c"), cvar("t"), cvar("f"))), SYM)
def where_true_false(c, t, f):
    return c if t.arg is True and f.arg is False else None  # where(c, True, False) -> c


@rule("where(c,False,True)", UPat(Ops.WHERE, dtype=BOOL, src=(var("c"), cvar("t"), cvar("f"))), SYM)
def where_false_true(c, t, f):
    # where(c, False, True) -> c != True, which is not c
    return c.ne(const(True)) if t.arg is False and f.arg is True else None


