# The keys each op takes, in the order `dumps` writes them; an op not listed takes none.
KEYS = {
    Ops.CONST: ("dtype", "value"),
    **{op: ("dtype", "slot", "size", "min", "max") for op in PARAM_OPS},
    Ops.CAST: ("dtype",),
    Ops.CALL: ("name",),
}
