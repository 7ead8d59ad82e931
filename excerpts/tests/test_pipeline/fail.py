def fail(layer, seed, root, problem, env=None, batch=None, show=None):
    """Shrink root while it still fails, then raise LayerFailure with a reproducible report.

    problem(u) -> a description of what is wrong with u (naming both values) or None;
    batch(list of u) -> a list of such descriptions, when checking one at a time is slow (C);
    show(u) -> extra text printed under a program (its simplified form, its C).
    """
    if batch is not None:
        problem = lambda u: batch([u])[0]  # noqa: E731
        small = shrink(root, lambda us: [p is not None for p in batch(us)], batch=True)
    else:
        small = shrink(root, lambda u: problem(u) is not None)
    lines = [f"{layer} layer failed: {problem(root)}"]
    if seed is not None:
        lines.append(f"seed: {seed}")
    if env is not None:
        lines.append(f"inputs: {env}")
    for title, u in (("program", root), ("shrunk program", small)):
        lines += [f"{title} ({len(u.toposort())} nodes): {problem(u)}", text_of(u)]
        if show is not None:
            lines.append(guarded(show)(u))
    message = "\n".join(lines)
    print(message)
    raise LayerFailure(message)


