def echo(text: str) -> str:
    """text as an error message may quote it: control characters (a terminal escape, a
    carriage return) written as Python escapes, so a message stays one visible line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def read_dtype(text: str):
    if text not in DTYPES_BY_NAME:
        raise ValueError(f"unknown dtype '{shorten(text)}' (bool, i32 or f32)")
    return DTYPES_BY_NAME[text]


def read_bool(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError(f"a bool value is true or false, got '{shorten(text)}'")
    return text == "true"


# Exactly the spellings the format documents: no `+5`, `1_000`, non-ASCII digits or `Infinity`
# (which Python's int() and float() would take). A float is what repr writes, or a decimal int.
DECIMAL = re.compile(r"-?[0-9]{1,20}", re.ASCII)
FLOAT = re.compile(r"-?[0-9]{1,400}(\.[0-9]{1,400})?(e[+-]?[0-9]{1,4})?|-?inf|-?nan", re.ASCII)


def read_int(text: str) -> int:
    if not DECIMAL.fullmatch(text):
        raise ValueError(f"invalid literal for int() with base 10: '{shorten(text)}'")
    return int(text)


def read_float(text: str) -> float:
    if not FLOAT.fullmatch(text):
        raise ValueError(f"could not convert string to float: '{shorten(text)}'")
    return float(text)


def read_bound(fields: dict, key: str):
    """`min` or `max` of an i32 parameter: a promise about an int32, so inside int32."""
    if key not in fields:
        return None
    bound = read_int(fields[key])
    if not INT_MIN <= bound <= INT_MAX:
        raise ValueError(f"{key}={bound} is outside int32")
    return bound


def read_size(text: str) -> int:
    size = read_int(text)
    if size > MAX_ELEMENTS:
        raise ValueError(f"size={size} is above the limit of {MAX_ELEMENTS} elements")
    return size


# The value of a constant is read by its dtype; a float also as `1`, `nan` and `-inf`.
VALUE_READERS = {BOOL: read_bool, I32: read_int, F32: read_float}


def read_const(fields: dict):
    dtype = read_dtype(fields["dtype"])
    return VALUE_READERS[dtype](fields["value"])


def read_param(fields: dict) -> ParamArg:
    dtype, slot = read_dtype(fields["dtype"]), read_int(fields["slot"])
    if "size" in fields:
        dtype = Ptr(dtype, read_size(fields["size"]))
    low, high = read_bound(fields, "min"), read_bound(fields, "max")
    if low is not None and high is not None and low > high:
        raise ValueError(f"min={low} is above max={high}")
    return ParamArg(slot, dtype, low, high)


# Each reader raises KeyError for a missing key and ValueError for a value it cannot read.
ARG_READERS = {
    Ops.CONST: read_const,
    **{op: read_param for op in PARAM_OPS},
    Ops.CAST: lambda fields: read_dtype(fields["dtype"]),
    Ops.CALL: lambda fields: CallArg(fields["name"]),
}
