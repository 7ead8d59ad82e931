"""The compiled matcher's functions, written on demand, against the same written all at once.

The overlay writes a matcher's functions one at a time, the first time each is asked for
(`prepare` in uopc/speed/matcher.py), so that a process pays only for the ops and dtypes it
meets; `compile_matcher` writes them all in a fixed order. For each of the book's matchers
(at quick sizes, the one with every rule), the functions are asked for on demand in a shuffled
order and compared with those written all at once: the same set of functions, the same text
byte for byte, and the same values handed to `exec` under each name. A function whose text
depended on what was written before it (a counter shared between functions, say) would differ
here. A walk must write only the functions of the ops and dtypes it meets. Seeds are fixed.
"""

import os
import random

import pytest

from uopc import I32, Ops, ParamArg, UOp
from uopc.dtypes import VALUE_DTYPES, Ptr
from uopc.further import further, further_fast
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.speed.matcher import CompiledMatcher, compiled_functions, functions_by_dtype
from uopc.symbolic import default, fast

FULL = os.environ.get("UOPC_FULL") == "1"
MATCHERS = {"default": default, "fast": fast, "further": further, "further_fast": further_fast}
QUICK = ("further_fast",)  # the matcher with every rule (all four under --full)
SEEDS = range(3 if FULL else 1)  # orders of asking


def handed(function) -> dict:
    """What exec was handed for a generated function: its globals, less its own name."""
    own = {"__builtins__", function.__name__}
    return {name: value for name, value in function.__globals__.items() if name not in own}


def same_function(on_demand, at_once, pair: tuple, where: str) -> None:
    """The same code, handed the same values by the same names; each counts into the
    `fired` of its own matcher (pair: the two matchers)."""
    assert on_demand.__name__ == at_once.__name__, where
    assert on_demand.__code__.co_code == at_once.__code__.co_code, where
    first, second = handed(on_demand), handed(at_once)
    assert first.keys() == second.keys(), f"{where}: other names handed to exec"
    assert first.pop("fired") is pair[0].fired and second.pop("fired") is pair[1].fired, where
    for name, value in first.items():
        assert value is second[name], f"{where}: {name} is another value"


def asked_on_demand(rules, seed: int) -> PatternMatcher:
    """A matcher over rules whose every function is asked for once, in a shuffled order."""
    pm = PatternMatcher(rules)
    functions, by_dtype = compiled_functions(pm), functions_by_dtype(pm)
    keys = [op for op in Ops] + [(op, dtype) for op in by_dtype for dtype in VALUE_DTYPES]
    random.Random(seed).shuffle(keys)
    for key in keys:
        if isinstance(key, tuple):
            by_dtype[key[0]][key[1]]
        else:
            functions[key]
    return pm


@pytest.mark.parametrize("name", list(MATCHERS) if FULL else QUICK)
def test_functions_on_demand_are_those_written_at_once(name):
    rules = MATCHERS[name].rules
    at_once = CompiledMatcher(rules)
    for seed in SEEDS:
        pm = asked_on_demand(rules, seed)
        assert list(pm.dtype_source) != list(at_once.dtype_source), "written in the same order"
        assert pm.source.keys() == at_once.source.keys()
        assert pm.dtype_source.keys() == at_once.dtype_source.keys()
        for op, text in at_once.source.items():
            assert pm.source[op] == text, f"{name}, seed {seed}: the text of {op.name} differs"
            where = f"{name}, seed {seed}: {op.name}"
            same_function(pm.compiled[op], at_once.compiled[op], (pm, at_once), where)
        eager = functions_by_dtype(at_once)
        for (op, dtype), text in at_once.dtype_source.items():
            where = f"{name}, seed {seed}: {op.name} for {dtype}"
            assert pm.dtype_source[op, dtype] == text, f"{where}: the text differs"
            on_demand = functions_by_dtype(pm)[op][dtype]
            same_function(on_demand, eager[op][dtype], (pm, at_once), where)


def test_a_pointer_gets_the_function_of_its_op():
    pm = PatternMatcher(default.rules)
    by_dtype = functions_by_dtype(pm)
    pointer = Ptr(I32, 4)
    op = next(iter(by_dtype))
    assert by_dtype[op][pointer] is compiled_functions(pm)[op]
    with pytest.raises(KeyError):
        pm.dtype_source[op, pointer]  # only value dtypes have a function (and text) of their own


def test_a_walk_writes_only_what_it_meets():
    """An int graph of additions and products: the first rewrite writes ADD's and MUL's
    functions for i32, and nothing else (this is the saving: every process once)."""
    pm = PatternMatcher(default.rules)
    x, y = (UOp(Ops.PARAM, arg=ParamArg(slot, I32)) for slot in (0, 1))
    graph_rewrite((x + y) * (y + x), pm)
    assert set(pm.dtype_source) == {(Ops.ADD, I32), (Ops.MUL, I32)}
    assert not pm.source, "no function of an op for every dtype was needed"
