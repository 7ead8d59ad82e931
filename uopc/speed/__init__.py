"""Speed in one place: tested twins that `install()` puts in place of named plain functions.

The modules the chapters teach are the reference: plain code that reads whole, with no
shortcut in it. This package imports them, never the reverse, and `install()` replaces a few
of their functions with twins that give the same answers sooner, as Python's own `heapq` or
`json` put an accelerator in place of their pure-Python functions. Every replacement is one line
of TWINS below, and nothing else in the project assigns into another module. `import uopc`
installs them (the book's outputs and the benchmark run with them); `uninstall()` puts every
plain function back, and `python -m uopc --plain ...` runs the command line that way.

Invariant: with or without the twins, every function returns the same result, builds the same
nodes in the same order and raises the same errors; the quick suite's unit and differential
layers run in both modes (tests/conftest.py), and each twin has a differential test against its
plain function (tests/test_shortcuts.py, test_compiled.py, test_quick_walk.py, test_ops.py;
test_lazy_matcher.py holds the matcher's functions written on demand to those written at once).
"""

from .. import ops, ranges, rewrite, typecheck, uop
from . import matcher, node, walk

# --8<-- [start:twins]
# (where, the name there, its twin): each twin stands in for the plain function of that name
TWINS = [
    (typecheck, "infer", node.infer),  # the checker: two common nodes looked up
    (uop.UOp, "__new__", staticmethod(node.new)),  # the table by the op's value
    (uop.UOp, "_binary", node._binary),  # the constructor without the class call
    (ranges, "fill_ranges", node.fill_ranges),  # a node's range from its srcs' at once
    (uop.UOp, "range", property(node.node_range)),  # the same, a call sooner
    (uop.UOp, "_build", classmethod(node._build)),  # fields set through the slots' setters
    (uop.UOp, "replace_src", node.replace_src),  # a rebuild over srcs of the same dtypes
    (rewrite.PatternMatcher, "rewrite", matcher.rewrite),  # patterns compiled to Python
    (rewrite, "_rewrite_to_fixed_point", walk._rewrite_to_fixed_point),  # fewer loop trips
]
# --8<-- [end:twins]

_PLAIN = {(where, name): vars(where)[name] for where, name, _twin in TWINS}
_PLAIN_ENUM_TYPE = type(ops.Ops)
_installed = False


# --8<-- [start:install]
def install(without: tuple = ()) -> None:
    """Put every twin in place (and Ops under a metaclass without 3.11's slow fallback), but
    those named in `without` ("infer", ..., "enum"), which keep their plain function (the
    benchmark weighs each twin so)."""
    global _installed
    uninstall()
    for where, name, twin in TWINS:
        if name.strip("_") not in without:
            setattr(where, name, twin)
    if node.LEAN_ENUM_TYPE is not None and "enum" not in without:
        ops.Ops.__class__ = node.LEAN_ENUM_TYPE
    _installed = True


def uninstall() -> None:
    """Put every plain function back: the code the chapters show, and nothing else, runs."""
    global _installed
    for (where, name), function in _PLAIN.items():
        setattr(where, name, function)
    ops.Ops.__class__ = _PLAIN_ENUM_TYPE
    _installed = False


# --8<-- [end:install]


def installed() -> bool:
    """True when the twins are in place (the default), False after uninstall()."""
    return _installed


def plain(where, name: str):
    """The plain function that TWINS names, installed or not (for the tests that set a twin
    beside it): plain(rewrite.PatternMatcher, "rewrite")."""
    return _PLAIN[where, name]


def twin_names() -> list[str]:
    """The names install(without=...) takes: each twin's plain name, and "enum"."""
    return [name.strip("_") for _where, name, _twin in TWINS] + ["enum"]
