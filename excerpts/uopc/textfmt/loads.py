def loads(text: str):
    """The node of the last line of `text`, every line built through the normal constructor."""
    lines = text.split("\n")  # only "\n" ends a line: a name may hold other separators
    if lines[0].endswith("\r"):  # refused here and on the command line alike
        raise ParseError("line 1 ends in \\r\\n: the format's lines end in \\n alone")
    if lines[0] != HEADER and not lines[0].startswith(HEADER + " "):
        raise ParseError(
            f"the first line must be '{HEADER}' (a title may follow), got '{shorten(lines[0])}'"
        )
    records, defined = [], {}
    for number, line in enumerate(lines[1:], start=2):
        if line.strip():  # blank lines after the header are ignored
            records.append(parse_line(number, line, defined))
    if not records:
        raise ParseError("no nodes after the header")
    return build(records)


