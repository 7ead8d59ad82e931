def function_source(op: Ops, rules: list, names: dict) -> str:
    """def rewrite_<OP>(u, ctx): the rules of by_op[op] in order, the first that fires wins."""
    lines = [f"def rewrite_{op.name}(u, ctx):"]
    for number, r in enumerate(rules):
        code = PatternCode(f"r{number}", names)
        tests = code.tests(r.pat, "u", top=op)
        arguments = call_arguments(r, code.bound)
        lines += [f"    # {r.name}", f"    if {' and '.join(tests) or 'True'}:"]
        inlined = inline_rule(r, code.bound, f"r{number}", names)
        if inlined is None:  # the call to the rule's function
            fn = code.constant(r.fn, "fn")
            lines += [
                f"        result = {fn}({', '.join(arguments)})",
                "        if result is not None and result is not u:",
                f"            fired[{r.name!r}] += 1",
                "            return result",
            ]
        else:  # its body, written in (speed/inline.py)
            body, local = inlined
            lines += [f"        {line}" for line in body]
            lines += [f"    {' = '.join(local)} = None"] if local else []
    return "\n".join([*lines, "    return None"])


