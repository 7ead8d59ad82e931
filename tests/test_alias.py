"""A buffer passed twice is refused unless the caller opts in (beyond the book's known limit 2).

The body of a call assumes that its buffers are distinct: the builder orders the accesses of
each buffer, not the accesses of two buffers that happen to share memory. The kernel used here
copies a two-element buffer `a` into `b` crosswise:

    b[0] = a[1]
    b[1] = a[0]

With distinct buffers, a = [3, 5] gives b = [5, 3]. The C statements run in `toposort` order,
which puts the load of a[0] after the store to b[0] (nothing orders them: they touch different
buffers). Through one buffer passed as both a and b, that store has already overwritten a[0] by
the time it is read, so the buffer ends as [5, 5]. `run_call` with the same list given twice,
in "dfs" order (the order of the C statements), predicts that; `run_call` with two lists gives
the intended [5, 3]. `Program` and `execute` refuse the aliased call with a ValueError that
names the two positions; with `allow_alias=True` they run it and give [5, 5].

Run as a script: `python tests/test_alias.py`.
"""

import sys

import pytest

from book import protocol
from uopc import F32, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.interp import run_call
from uopc.runtime import Buffer, Program, execute
from uopc.textfmt import dumps

START = [3.0, 5.0]
SEPARATE = [5.0, 3.0]  # b after the call when a and b are distinct
ALIASED = [5.0, 5.0]  # the one buffer after the call when a and b are the same memory


def buffer_arg(slot: int, size: int = 2) -> UOp:
    return UOp(Ops.BUFFER, (), ParamArg(slot, Ptr(F32, size)))


def crosswise(buffers: int = 2) -> UOp:
    """b[0] = a[1]; b[1] = a[0], with a in slot 0 and b in the last slot."""
    builder = Builder()
    a = builder.buffer(0, F32, 2)
    for slot in range(1, buffers - 1):
        builder.buffer(slot, F32, 2)  # bystanders, never touched
    b = builder.buffer(buffers - 1, F32, 2)
    b.store(0, a.load(1))
    b.store(1, a.load(0))
    return make_call(builder.body(), [buffer_arg(s) for s in range(buffers)], f"cross{buffers}")


class Checks:
    """Counts assertions; a failing one prints the kernel in the text format."""

    def __init__(self, call: UOp):
        self.call, self.count = call, 0

    def __call__(self, condition: bool, message: str) -> None:
        self.count += 1
        if not condition:
            print(dumps(self.call, "the kernel"))
            raise AssertionError(message)

    def refuses(self, run, positions: str) -> None:
        """run() must raise a ValueError naming `positions` and the opt-in."""
        try:
            run()
        except ValueError as error:
            text = str(error)
            self(f"arguments {positions} are the same buffer" in text, f"unclear: {text}")
            self("allow_alias=True" in text, f"the message does not name the opt-in: {text}")
        else:
            self(False, f"an aliased call (arguments {positions}) was not refused")


def interpreter_predictions(call: UOp) -> tuple[list, list]:
    """(one list passed twice, in the C statement order), (two distinct lists)."""
    shared = list(START)
    run_call(call, [shared, shared], order="dfs")
    a, b = list(START), list(START)
    run_call(call, [a, b], order="dfs")
    return shared, b


def alias() -> int:
    """The refusal, the opt-in and the result it gives; returns the number of checks."""
    call = crosswise()
    check = Checks(call)
    aliased, separate = interpreter_predictions(call)
    check(separate == SEPARATE, f"run_call on distinct lists gave {separate}")
    check(aliased == ALIASED, f"run_call on one list twice gave {aliased}")
    check(aliased != separate, "aliasing should change this kernel's result")

    program, one = Program(call), Buffer(F32, 2).copyin(START)
    check.refuses(lambda: program(one, one), "0 and 1")
    check.refuses(lambda: execute(call, {0: one, 1: one}), "0 and 1")
    check(one.tolist() == START, "a refused call must not have run")
    three = crosswise(3)
    check.refuses(lambda: execute(three, {0: one, 2: one}), "0 and 2")

    program(one, one, allow_alias=True)  # the opt-in runs the C as written
    check(one.tolist() == aliased, f"Program with allow_alias gave {one.tolist()}")
    again = Buffer(F32, 2).copyin(START)
    execute(call, {0: again, 1: again}, allow_alias=True)
    check(again.tolist() == aliased, f"execute with allow_alias gave {again.tolist()}")

    a, b = Buffer(F32, 2).copyin(START), Buffer(F32, 2).copyin(START)
    program(a, b)  # equal contents, distinct memory: no refusal
    check(b.tolist() == separate and a.tolist() == START, f"distinct buffers gave {b.tolist()}")
    out = execute(call, {0: START, 1: START})  # a list is copied into a fresh Buffer each time
    check(out[1].tolist() == separate, f"one list given twice gave {out[1].tolist()}")

    print(f"alias: {check.count} checks passed; one buffer twice gives {aliased}, not {separate}")
    protocol.report("pipeline", "alias", check.count)
    return check.count


@pytest.mark.layer("alias")
@pytest.mark.needs_clang
def test_alias():
    assert alias() > 0


LAYERS = {"alias": alias}  # layer name -> function returning its check count

if __name__ == "__main__":
    try:
        alias()
    except AssertionError as error:
        print(f"FAILED: {error}")
        sys.exit(1)
