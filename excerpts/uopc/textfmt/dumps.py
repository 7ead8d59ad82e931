def format_line(number: int, u, numbers: dict) -> str:
    """`%k = op %a, %b : key=value ...` for node u, its srcs named through `numbers`."""
    line = f"%{number} = {u.op.name.lower()}"
    if u.src:
        line += " " + ", ".join(f"%{numbers[s]}" for s in u.src)
    fields = FIELD_WRITERS.get(u.op, lambda _: [])(u)
    if fields:
        line += " : " + " ".join(f"{key}={value}" for key, value in fields)
    return line


def dumps(u, title=None) -> str:
    """The graph under u, one line per node in toposort order, so the root is the last line."""
    if title and "\n" in str(title):
        raise ValueError("a title must fit on the header line")
    lines = [f"{HEADER} {title}" if title else HEADER]
    numbers = {}
    for number, node in enumerate(u.toposort()):
        numbers[node] = number
        lines.append(format_line(number, node, numbers))
    return "\n".join(lines) + "\n"


