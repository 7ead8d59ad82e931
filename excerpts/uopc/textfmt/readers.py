def read_dtype(text: str):
    if text not in DTYPES_BY_NAME:
        raise ValueError(f"unknown dtype '{text}' (bool, i32 or f32)")
    return DTYPES_BY_NAME[text]


def read_bool(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError(f"a bool value is true or false, got '{text}'")
    return text == "true"


# The value of a constant is read by its dtype; float() also takes `1`, `nan` and `-inf`.
VALUE_READERS = {BOOL: read_bool, I32: int, F32: float}


def read_const(fields: dict):
    dtype = read_dtype(fields["dtype"])
    return VALUE_READERS[dtype](fields["value"])


def read_param(fields: dict) -> ParamArg:
    dtype, slot = read_dtype(fields["dtype"]), int(fields["slot"])
    if "size" in fields:
        dtype = Ptr(dtype, int(fields["size"]))
    bounds = [int(fields[key]) if key in fields else None for key in ("min", "max")]
    return ParamArg(slot, dtype, *bounds)


# Each reader raises KeyError for a missing key and ValueError for a value it cannot read.
ARG_READERS = {
    Ops.CONST: read_const,
    **{op: read_param for op in PARAM_OPS},
    Ops.CAST: lambda fields: read_dtype(fields["dtype"]),
    Ops.CALL: lambda fields: CallArg(fields["name"]),
}
