"""Which lines of the unmutated package a planted bug edits, and whether a column's run on the
unmutated package reached any of them (tests/mutant_matrix.py skips the cells where it did not).

The argument: a column's tests are seeded, so its run on the mutated copy does exactly what its
run on the unmutated copy did until it first reaches code the edit changed. If the unmutated
run never reached any of it, the mutated run never does either, runs the same code to the same
end, and passes as the unmutated run passed: the cell cannot catch the bug. The lines must be
measured generously, so that every way of reaching the edit counts:

- the lines the edit's original text covers, and every statement that overlaps them (a
  statement over several lines may be recorded on any of them);
- the nearest line of code on each side (an inserted or deleted statement is reached when the
  one before it finishes or the one after it starts), and, where the edit starts at a function's
  first statement, that first statement (the edit is reached when the function is called);
- any line that runs when the module is imported (module and class level, decorators, `def`
  lines with their default values, a lambda outside a function): an edit there is never skipped,
  since every run imports the module;
- an edit that changes no line of code (a comment, a blank line) is never skipped either.

A file whose path depends on state outside the run (OUTSIDE_STATE: the runtime and its on-disk
cache of libraries) has that state come in through a few functions of its own: a run that
called none of them read none of it, and the argument holds; once one of them ran, the
unmutated run's path need not be the mutated run's, so their first statements are watched too
(an edit of runtime.py is reached in every column that compiles C). Files that are not Python
are never skipped. This module reads source text only; it imports nothing of `uopc`.
"""

import ast

# Modules whose path through the code depends on state outside the run, with every function of
# theirs that reads or writes that state: the runtime compiles a library or finds it in the
# shared on-disk cache, and which it does depends on what earlier runs left there (the others
# read only the environment, the same in every run, or run the compiler for its version).
OUTSIDE_STATE = {
    "runtime.py": (
        "compile_c", "open_cache", "remove_stale_temporaries", "cached_library", "_build",
        "_write_atomically", "_temporary", "_writer_gone", "_digest", "_read_text",
        "_clear_directory",
    ),
}  # fmt: skip


def entries(file: str) -> tuple[str, ...]:
    """The functions of file (a path under uopc/) through which outside state comes in."""
    return OUTSIDE_STATE.get(file, ())


def edit_lines(text: str, original: str) -> tuple[int, int]:
    """The first and last line (1-based) of text that the original text of an edit covers."""
    offset = text.index(original)
    first = text.count("\n", 0, offset) + 1
    last = text.count("\n", 0, offset + max(len(original), 1) - 1) + 1
    return first, last


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _span(node) -> tuple[int, int]:
    """The lines of a statement that show whether it ran: a simple statement whole, a compound
    one its header only (its body holds statements of its own)."""
    body = getattr(node, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
        return node.lineno, max(node.lineno, body[0].lineno - 1)
    return node.lineno, node.end_lineno or node.lineno


def _units(tree) -> list[tuple[int, int]]:
    """The line spans where a statement may be recorded as run: a simple statement whole, a
    compound one its header only (its body holds statements of its own)."""
    return [_span(n) for n in ast.walk(tree) if isinstance(n, ast.stmt | ast.excepthandler)]


def _functions(tree) -> list:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _first_statement(function) -> ast.stmt:
    """A function's first statement that is not its docstring (or the docstring, if alone)."""
    body = function.body
    docstring = (
        isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )
    return body[1] if docstring and len(body) > 1 else body[0]


def watch(text: str, original: str, entry: tuple = ()) -> tuple[set[int] | None, str]:
    """(the lines any of which, if run, means the edit may be reached; why) for an edit of the
    unmutated file text. None instead of lines: the edit is always reached (see above). entry:
    the functions through which outside state comes in (entries), their first statements
    watched too; one not in the text makes the edit always reached."""
    lines = text.splitlines()
    first, last = edit_lines(text, original)
    tree = ast.parse(text)
    functions = _functions(tree)
    inside = set()  # the lines of some function's body
    for function in functions:
        inside.update(range(function.body[0].lineno, function.end_lineno + 1))
    changed = [n for n in range(first, last + 1) if _is_code(lines[n - 1])]
    if not changed:
        return None, "the edit changes no line of code"
    outside = [n for n in changed if n not in inside]
    if outside:
        return None, f"line {outside[0]} runs when the module is imported"
    low, high = first - 1, last + 1  # the nearest code on each side
    while low >= 1 and not _is_code(lines[low - 1]):
        low -= 1
    while high <= len(lines) and not _is_code(lines[high - 1]):
        high += 1
    watched = {n for n in range(low, high + 1) if n in inside}
    for start, end in _units(tree):
        if start <= high and end >= low and start in inside:
            watched.update(range(start, end + 1))
    for node in ast.walk(tree):  # its test runs whenever an exception passes, taken or not
        if isinstance(node, ast.ExceptHandler) and low <= node.lineno <= high:
            return None, f"line {node.lineno} tests every exception that passes"
    for function in functions:  # an edit at a function's start is reached when it is called
        begin = _first_statement(function)
        if function.body[0].lineno <= first <= (begin.end_lineno or begin.lineno):
            watched.update(range(begin.lineno, (begin.end_lineno or begin.lineno) + 1))
    why = f"lines {min(watched)}-{max(watched)}"
    for name in entry:  # a call of one of them reads the outside state
        called = [function for function in functions if function.name == name]
        if not called:
            return None, f"{name}, through which outside state comes in, is not in the file"
        for function in called:
            begin = _first_statement(function)
            watched.update(range(begin.lineno, (begin.end_lineno or begin.lineno) + 1))
    if entry:
        why += f" and the first lines of {', '.join(entry)}"
    return watched, why


def reached(text: str, original: str, ran: set[int], entry: tuple = ()) -> tuple[bool, str]:
    """(whether a run that ran these lines of the unmutated file may reach the edit; why)."""
    watched, why = watch(text, original, entry)
    if watched is None:
        return True, why
    hit = sorted(watched & ran)
    if hit:
        return True, f"line {hit[0]} ran"
    return False, f"none of {why} ran"


# ---------------------------------------------------------------------------------------------
# Recording which of the watched lines run: a probe before each statement that holds one
# ---------------------------------------------------------------------------------------------

PROBE = "__uopc_matrix_probe__"  # a name in builtins while a run is recorded


def instrument(text: str, watched: set[int], first_probe: int = 0):
    """(the module's syntax tree with a probe call before every statement inside a function
    whose lines hold a watched line, [(first, last line) of each probe's statement]).

    Probe number first_probe + i is the call PROBE(first_probe + i) before statement i: it runs
    exactly when the statement starts, as a line tracer would see it, at the cost of one call
    of a set's add where a tracer costs a call on every line of the package. A function's
    docstring gets no probe (it would stop being the docstring); statements at module level get
    none (they run at import, and watch never asks about them). The line numbers of the
    statements stay those of the file, so tracebacks and messages are unchanged."""
    tree = ast.parse(text)
    spans: list[tuple[int, int]] = []

    def probed(statements: list, function_body: bool) -> list:
        out = []
        for place, statement in enumerate(statements):
            docstring = (
                function_body
                and place == 0
                and isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            )
            first, last = _span(statement)
            if not docstring and watched.intersection(range(first, last + 1)):
                number = ast.Constant(first_probe + len(spans))
                call = ast.Call(ast.Name(PROBE, ast.Load()), [number], [])
                out.append(ast.copy_location(ast.Expr(call), statement))
                spans.append((first, last))
            out.append(statement)
        return out

    def visit(node, inside: bool) -> None:
        is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        inside = inside or is_function
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if isinstance(statements, list) and statements and isinstance(statements[0], ast.stmt):
                for child in statements:
                    visit(child, inside)
                if inside:
                    setattr(node, field, probed(statements, is_function and field == "body"))
        for handler in getattr(node, "handlers", []):
            for child in handler.body:
                visit(child, inside)
            if inside:
                handler.body = probed(handler.body, False)

    visit(tree, False)
    ast.fix_missing_locations(tree)
    return tree, spans
