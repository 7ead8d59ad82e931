def function_source(op: Ops, rules: list, names: dict, dtype=None) -> str:
    """def rewrite_<OP>(u, ctx): the rules of by_op[op] in order, the first that fires wins.
    Given a dtype, rewrite_<OP>_<dtype>, for a node of that dtype only (dtype_functions)."""
    lines = [f"def rewrite_{op.name}{'' if dtype is None else '_' + dtype.name}(u, ctx):"]
    srcs = top_srcs(op)
    if srcs and rules:  # unpacked once for every rule (its op fixes their number: ARITY)
        lines.append(f"    {', '.join(srcs)}{',' if len(srcs) == 1 else ''} = u.src")
    for number, r in enumerate(rules):
        if dtype is not None and r.pat.dtype is not None and dtype not in r.pat.dtype:
            continue  # the pattern refuses a node of this dtype
        code = PatternCode(f"r{number}", names, srcs)
        tests = code.tests(r.pat, "u", top=op, top_dtype=dtype)
        arguments = call_arguments(r, code.bound)
        lines += [f"    # {r.name}", f"    if {' and '.join(tests) or 'True'}:"]
        inlined = inline_rule(
            r, code.bound, f"r{number}", names, dtype is not None, CACHED_READS, CALLS
        )
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


