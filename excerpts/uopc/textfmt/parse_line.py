def parse_line(number: int, line: str, defined: dict) -> tuple:
    """One node line to (number, op, src positions, arg); adds its name to `defined`."""
    match = LINE.fullmatch(line)
    if match is None:
        raise ParseError(f"line {number}: cannot parse '{shorten(line)}'")
    name, op_name, refs, fields = match.groups()
    if name in defined:
        raise ParseError(f"line {number}: '{shorten(name)}' is defined twice")
    if name != f"%{len(defined)}":  # nodes are numbered from %0 in order, without gaps
        raise ParseError(f"line {number}: expected '%{len(defined)}', got '{shorten(name)}'")
    if op_name not in OPS_BY_NAME:
        raise ParseError(f"line {number}: unknown op '{shorten(op_name)}'")
    op = OPS_BY_NAME[op_name]
    srcs = []
    for ref in refs.split(", ") if refs else []:
        if ref not in defined:  # also a forward ref, a self ref, and `%x`
            raise ParseError(f"line {number}: '{shorten(ref)}' is not defined above this line")
        srcs.append(defined[ref])
    arg = parse_fields(number, op, fields.split(" ") if fields else [])
    defined[name] = len(defined)
    return number, op, srcs, arg


def parse_fields(number: int, op, tokens: list):
    """The arg of one line from its `key=value` tokens."""
    fields = {}
    for token in tokens:
        key, _, value = token.partition("=")  # the line pattern made sure of the "="
        if key not in KEYS.get(op, ()):
            raise ParseError(f"line {number}: unknown key '{shorten(key)}'")
        if key in fields:
            raise ParseError(f"line {number}: key '{shorten(key)}' is given twice")
        fields[key] = value
    try:
        return ARG_READERS[op](fields) if op in ARG_READERS else None
    except KeyError as error:  # str(KeyError('value')) is "'value'"
        raise ParseError(f"line {number}: missing key {error}") from None
    except ValueError as error:
        raise ParseError(f"line {number}: bad value: {error}") from None


