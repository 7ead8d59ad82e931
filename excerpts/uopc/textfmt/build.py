def build(records: list):
    """Build every record in order; a type error becomes a ParseError naming the line."""
    nodes = []
    for number, op, srcs, arg in records:
        try:
            nodes.append(UOp(op, [nodes[position] for position in srcs], arg))
        except UOpError as error:
            message = f"line {number}: {error}"
            break
    else:
        return nodes[-1]
    # The traceback of the ParseError keeps this frame, so the partial graph is dropped first
    # and the error is raised outside the handler (no chained UOpError holding srcs either).
    nodes.clear()
    raise ParseError(message)


