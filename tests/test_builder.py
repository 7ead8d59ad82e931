"""Tests of uopc.builder: the AFTER edges for the three hazards, merging of loads from buffers
never written, the SINK of a body, and the book's `add3` program.

Results are checked with the interpreter in both orders against a plain Python simulation.
"""

import pytest

from uopc import BOOL, F32, I32, CallArg, Ops, ParamArg, Ptr, UOp, UOpError
from uopc.builder import Builder, Mem, make_call, signature_call
from uopc.interp import run_call
from uopc.textfmt import dumps


def buffer(slot, dtype, size):
    return UOp(Ops.BUFFER, (), ParamArg(slot, Ptr(dtype, size)))


def pointer_of(store):
    """The pointer a store writes through: src[0] of its INDEX."""
    return store.src[0].src[0]


def both_orders(call, *lists):
    """Run call in both orders on fresh copies; both must agree, and that result is returned."""
    results = []
    for order in ("id", "dfs"):
        copies = [list(values) for values in lists]
        run_call(call, copies, order)
        results.append(copies)
    assert results[0] == results[1]
    return results[0]


# ---------------------------------------------------------------------------------------------
# The three hazards
# ---------------------------------------------------------------------------------------------


def swap():
    builder = Builder()
    a = builder.buffer(0, F32, 2)
    first, second = a.load(0), a.load(1)
    store0, store1 = a.store(0, second), a.store(1, first)
    return builder, a, (first, second), (store0, store1)


def test_swap_structure():
    builder, a, loads, (store0, store1) = swap()
    # write after read: the first store waits for both loads
    assert pointer_of(store0) is UOp(Ops.AFTER, (a.base, *loads))
    # write after write: the second store's pointer comes from the first store's version
    assert pointer_of(store1) is UOp(Ops.AFTER, (pointer_of(store0), store0))
    assert a.last is store1
    assert builder.body() is UOp.sink(store1)
    lines = dumps(builder.body()).splitlines()
    assert "%7 = after %0, %3, %6" in lines and "%10 = after %7, %9" in lines


def test_swap_runs():
    builder = swap()[0]
    call = make_call(builder.body(), [buffer(0, F32, 2)], "swap")
    assert both_orders(call, [1.0, 2.0]) == [[2.0, 1.0]]


def test_read_after_write_loads_the_new_version():
    builder = Builder()
    a = builder.buffer(0, F32, 1)
    before = a.load(0)
    store = a.store(0, 2.0)
    version = a.version
    after = a.load(0)
    assert after is not before  # a different node: it indexes the version after the store
    assert pointer_of(store) is UOp(Ops.AFTER, (a.base, before))
    assert version is UOp(Ops.AFTER, (pointer_of(store), store))
    assert after.src[0].src[0] is version
    a.store(0, after * 10.0)
    call = make_call(builder.body(), [buffer(0, F32, 1)], "sequenced")
    assert both_orders(call, [1.0]) == [[20.0]]


def test_a_store_without_loads_uses_the_version_itself():
    builder = Builder()
    a = builder.buffer(0, F32, 2)
    store = a.store(0, 1.0)
    assert pointer_of(store) is a.base and a.readers == []


def shift_right():
    """a[i+1] = a[i] for i = 0, 1, 2 on a size-4 buffer."""
    builder = Builder()
    a = builder.buffer(0, I32, 4)
    for i in range(3):
        a.store(i + 1, a.load(i))
    return make_call(builder.body(), [buffer(0, I32, 4)], "shift")


def simulate_shift(values):
    values = list(values)
    for i in range(3):
        values[i + 1] = values[i]
    return values


def test_sequenced_shift_matches_python():
    assert both_orders(shift_right(), [1, 2, 3, 4]) == [simulate_shift([1, 2, 3, 4])]


# ---------------------------------------------------------------------------------------------
# Loads from a buffer never written merge
# ---------------------------------------------------------------------------------------------


def stencil():
    builder = Builder()
    source, out = builder.buffer(0, F32, 5), builder.buffer(1, F32, 5)
    for k in range(1, 4):
        out.store(k, source.load(k - 1) + source.load(k) + source.load(k + 1))
    return builder, source


def test_stencil_nine_loads_make_five_nodes():
    builder, source = stencil()
    assert len(source.readers) == 9  # every load written, never written to, never cleared
    body = builder.body()
    assert sum(node.op is Ops.LOAD for node in body.toposort()) == 5
    assert not any(node.op is Ops.AFTER and node.src[0] is source.base for node in body.toposort())
    call = make_call(body, [buffer(0, F32, 5), buffer(1, F32, 5)], "stencil")
    result = both_orders(call, [1.0, 2.0, 4.0, 8.0, 16.0], [0.0] * 5)
    assert result[1] == [0.0, 7.0, 14.0, 28.0, 0.0]


# ---------------------------------------------------------------------------------------------
# The add3 program (Step 10)
# ---------------------------------------------------------------------------------------------


def add3():
    builder = Builder()
    a, b, out = (builder.buffer(slot, F32, 3) for slot in range(3))
    for i in range(3):
        out.store(i, a.load(i) + b.load(i))
    return make_call(builder.body(), [buffer(slot, F32, 3) for slot in range(3)], "add3")


def test_add3_text_has_35_lines():
    text = dumps(add3())
    assert len(text.splitlines()) == 35
    assert text.splitlines()[-1] == "%33 = call %29, %30, %31, %32 : name=add3"


def test_add3_runs():
    out = [0.0, 0.0, 0.0]
    assert run_call(add3(), [[1.0, 2.0, 3.0], [10.0, 20.0, 30.0], out]) is None
    assert out == [11.0, 22.0, 33.0]


# ---------------------------------------------------------------------------------------------
# Bodies, indices, values, calls
# ---------------------------------------------------------------------------------------------


def test_body_without_stores_is_a_sink_error():
    builder = Builder()
    builder.buffer(0, F32, 2).load(0)
    with pytest.raises(UOpError, match="SINK: needs one or more STOREs"):
        builder.body()


def test_body_keeps_the_last_store_of_each_written_mem_in_creation_order():
    builder = Builder()
    a, unused, b = (builder.buffer(slot, I32, 2) for slot in range(3))
    b.store(0, 1)
    a.store(0, 2)
    last = a.store(1, 3)
    assert builder.body().src == (last, b.last)
    assert builder.mems == [a, unused, b]


def test_numbers_are_not_converted():
    builder = Builder()
    with pytest.raises(UOpError, match="STORE: the stored value must be a scalar"):
        builder.buffer(0, F32, 2).store(0, 5)  # an int is an i32, not an f32


def test_index_may_be_a_node():
    builder = Builder()
    a = builder.buffer(0, I32, 3)
    where = UOp(Ops.PARAM, (), ParamArg(1, I32, 0, 2))
    a.store(where, a.load(0) + 1)
    data = [4, 0, 0]
    run_call(make_call(builder.body(), [buffer(0, I32, 3), UOp.const(2)]), [data])
    assert data == [4, 0, 5]


def test_alloc_is_scratch():
    builder = Builder()
    scratch, out = builder.alloc(0, F32, 1), builder.buffer(0, F32, 1)
    assert scratch.base.op is Ops.ALLOC and scratch.base.dtype == Ptr(F32, 1)
    scratch.store(0, 3.0)
    out.store(0, scratch.load(0) * 2.0)
    assert both_orders(make_call(builder.body(), [buffer(0, F32, 1)]), [0.0]) == [[6.0]]


def test_mem_alone_keeps_its_own_state():
    base = UOp(Ops.PARAM, (), ParamArg(0, Ptr(I32, 1)))
    mem = Mem(base)
    store = mem.store(0, 1)
    assert mem.last is store and mem.version.src == (base, store)


def test_make_call():
    body = Builder()
    body.buffer(0, I32, 1).store(0, 7)
    call = make_call(body.body(), [buffer(0, I32, 1)])
    assert call.op is Ops.CALL and call.arg == CallArg("kernel")
    assert make_call(body.body(), [buffer(0, I32, 1)], "k").arg.name == "k"


def bounded(slot, vmin=None, vmax=None):
    return UOp(Ops.PARAM, (), ParamArg(slot, I32, vmin, vmax))


def test_signature_call_takes_placeholders_inside_the_declared_ranges():
    """0 where the range allows it, else the nearer bound (issue 31: the checker refuses a call
    whose argument may leave its PARAM's declared range, a placeholder 0 included)."""
    body = bounded(0, 1, 10) + bounded(1, None, -5) + bounded(2, -3) + bounded(3, -3, 3)
    flag = UOp(Ops.PARAM, (), ParamArg(4, BOOL))
    body = flag.where(body, UOp.const(0)).cast(F32) + UOp(Ops.PARAM, (), ParamArg(5, F32))
    call = signature_call(body, [I32, I32, I32, I32, BOOL, F32, I32], "sig")
    assert [u.arg for u in call.src[1:]] == [1, -5, 0, 0, False, 0.0, 0]  # slot 6: no PARAM
    assert call.arg == CallArg("sig") and call.src[0] is body


def test_signature_call_meets_every_param_of_a_slot():
    """Two PARAMs of one slot with different ranges: the placeholder lies in both."""
    body = bounded(0, 2, 9) + bounded(0, 5, 20)
    assert signature_call(body, [I32]).src[1].arg == 5
    with pytest.raises(UOpError, match="beyond"):  # no argument fits [0, 3] and [5, 9] at once
        signature_call(bounded(0, 0, 3) + bounded(0, 5, 9), [I32])
