"""Unit cases for `uopc.uop`, `uopc.typecheck` and `uopc.ranges`: hash consing, ids, the weak
table, immutability, the type rules and their messages (spec §5), toposort, and the range
analysis (spec §6.4) with a brute-force soundness check and the 200,000-add chain.
"""

import dataclasses
import functools
import gc
import itertools
import math
import os
import pathlib
import random
import struct
import subprocess
import sys
import weakref

import pytest

from book.protocol import size
from uopc import speed, typecheck
from uopc.dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VOID, Ptr
from uopc.ops import Ops
from uopc.semantics import eval_op
from uopc.uop import ALU_SPACE, MEM_SPACE, CallArg, ParamArg, UOp, UOpError

INF = math.inf
NAN = math.nan
FULL_UNSAFE = (INT_MIN, INT_MAX, False)
UNBOUNDED = (-INF, INF, True)


def param(slot, dtype, vmin=None, vmax=None):
    return UOp(Ops.PARAM, (), ParamArg(slot, dtype, vmin, vmax))


def index(pointer, position):
    return UOp(Ops.INDEX, (pointer, position))


def load(pointer, position):
    return UOp(Ops.LOAD, (index(pointer, position),))


def store(pointer, position, value):
    return UOp(Ops.STORE, (index(pointer, position), value))


def forged(op, dtype, shape, space):
    """A node the checker could never build (its shape does not follow from its dtype), made
    behind the table's back, so that the messages about shapes can be reached at all."""
    attributes = {"__slots__": (), "shape": property(lambda self: shape)}
    attributes["space"] = property(lambda self: space)
    node = object.__new__(type("Forged", (UOp,), attributes))
    for name, value in {"op": op, "src": (), "arg": None, "dtype": dtype, "id": -1}.items():
        object.__setattr__(node, name, value)
    return node


def live_count():
    """How many nodes the hash-consing table holds now (whatever the table's layout)."""
    return len(UOp.live_nodes()) if hasattr(UOp, "live_nodes") else len(UOp.table)


# Module-level nodes: alive for the whole file, so the error cases below can name them.
I = param(0, I32)  # noqa: E741
J = param(4, I32)
F = param(1, F32)
B = param(2, BOOL)
P4 = param(3, Ptr(F32, 4))
BUF8 = UOp(Ops.BUFFER, (), ParamArg(0, Ptr(F32, 8)))
SCRATCH = UOp(Ops.ALLOC, (), ParamArg(5, Ptr(I32, 2)))
C0, C3, C1F = UOp.const(0), UOp.const(3), UOp.const(1.0)
IDX = index(P4, I)
LD = UOp(Ops.LOAD, (IDX,))
ST = UOp(Ops.STORE, (IDX, F))
SNK = UOp.sink(ST)

BODY_I = I + 1  # wants an i32 in slot 0
BODY_F = F * 2.0  # wants an f32 in slot 1
BODY_F_THEN_I = F + I.cast(F32)  # toposort meets slot 1 before slot 0
INNER_CALL = UOp(Ops.CALL, (BODY_I, C3), CallArg("inner"))
BODY_WITH_CALL = INNER_CALL * 2
BODY_WITH_BUFFER = load(BUF8, C0)
BODY_PARAM_THEN_BUFFER = I.cast(F32) + load(BUF8, C0)  # a PARAM before the BUFFER
P0_4 = param(0, Ptr(F32, 4))
PTR_BODY = UOp.sink(store(P0_4, C0, C1F))
SINK_CALL = UOp(Ops.CALL, (PTR_BODY, UOp(Ops.BUFFER, (), ParamArg(0, Ptr(F32, 4)))), CallArg("k"))
# a call's arguments against the range its PARAM declares (issue 31): p in [0, 15], and a body
# that simplify folds to 1 trusting that range (p < 16 is always true there)
P_0_15 = param(0, I32, 0, 15)
BODY_0_15 = P_0_15.lt(16).cast(I32)
OUTER_10_20 = param(6, I32, 10, 20)  # overlaps [0, 15] but may leave it
LOWER_ONLY = param(0, I32, -3)  # [-3, INT_MAX]
# two scratch arrays in slot 5 (different sizes, so two nodes): one C name for both
SCRATCH_4 = UOp(Ops.ALLOC, (), ParamArg(5, Ptr(I32, 4)))
TWO_ALLOCS_ONE_SLOT = UOp.sink(store(SCRATCH, C0, C3), store(SCRATCH_4, C0, C3))
ONE_ALLOC_TWICE = UOp.sink(store(SCRATCH, C0, C3), store(SCRATCH, C3, C3))

# Params whose ParamArg equals (==, same hash) an ill-typed one below: True == 1, 0.0 == 0,
# False == 0. Kept alive so that a table keyed by ParamArg equality finds them.
TWINS = [param(1, I32), param(0, I32, 0, 5), param(0, I32, 0, 0), param(0, I32, 0)]

WIDE_I32 = forged(Ops.PARAM, I32, (2,), ALU_SPACE)  # a "value" of shape (2,)
WIDE_F32 = forged(Ops.PARAM, F32, (2,), ALU_SPACE)


# ---------------------------------------------------------------------------------------------
# ParamArg, CallArg, spaces
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("a, b, equal", [
    (ParamArg(0, I32), ParamArg(0, I32, None, None), True),
    (ParamArg(0, I32, 0, 15), ParamArg(0, I32, 0, 15), True),
    (ParamArg(0, I32), ParamArg(1, I32), False),
    (ParamArg(0, I32), ParamArg(0, F32), False),
    (ParamArg(0, I32, 0, 15), ParamArg(0, I32, 0, 16), False),
    (ParamArg(0, Ptr(F32, 4)), ParamArg(0, Ptr(F32, 4)), True),
    (ParamArg(0, Ptr(F32, 4)), ParamArg(0, Ptr(F32, 8)), False),
    (CallArg("f"), CallArg("f"), True),
    (CallArg("f"), CallArg("g"), False),
])  # fmt: skip
def test_arg_records_compare_by_fields(a, b, equal):
    assert (a == b) == equal and (hash(a) == hash(b) or not equal)


@pytest.mark.parametrize("record, field", [
    (ParamArg(0, I32), "slot"),
    (ParamArg(0, I32), "vmin"),
    (CallArg("f"), "name"),
])  # fmt: skip
def test_arg_records_are_frozen(record, field):
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, field, 1)


@pytest.mark.parametrize("bounds, message", [
    ((5000000000, None), "a PARAM bound must fit in int32, got 5000000000"),
    ((None, INT_MAX + 1), "a PARAM bound must fit in int32, got 2147483648"),
    ((INT_MIN - 1, 0), "a PARAM bound must fit in int32, got -2147483649"),
    ((5, 3), "a PARAM's min 5 is greater than its max 3"),
])  # fmt: skip
def test_param_arg_refuses_bad_bounds(bounds, message):
    with pytest.raises(ValueError) as caught:
        ParamArg(0, I32, *bounds)
    assert str(caught.value) == message


@pytest.mark.parametrize("bounds", [(INT_MIN, INT_MAX), (7, 7), (None, -5), (3, None)])
def test_param_arg_accepts_bounds_in_int32(bounds):
    assert (ParamArg(0, I32, *bounds).vmin, ParamArg(0, I32, *bounds).vmax) == bounds


def test_space_names():
    assert (ALU_SPACE, MEM_SPACE) == ("ALU", "MEM")


def test_uop_error_is_a_type_error():
    assert issubclass(UOpError, TypeError)


# ---------------------------------------------------------------------------------------------
# 5.1 Hash consing
# ---------------------------------------------------------------------------------------------

PAYLOAD_NAN = struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000123))[0]

# (label, build a, build b, one node?)
CONSING = [
    ("x+y twice", lambda: I + J, lambda: I + J, True),
    ("x+y vs y+x", lambda: I + J, lambda: J + I, False),
    ("const 1 twice", lambda: UOp.const(1), lambda: UOp.const(1), True),
    ("const True vs 1", lambda: UOp.const(True), lambda: UOp.const(1), False),
    ("const 1 vs 1.0", lambda: UOp.const(1), lambda: UOp.const(1.0), False),
    ("const True vs 1.0", lambda: UOp.const(True), lambda: UOp.const(1.0), False),
    ("const False vs 0", lambda: UOp.const(False), lambda: UOp.const(0), False),
    ("const 0.0 vs -0.0", lambda: UOp.const(0.0), lambda: UOp.const(-0.0), False),
    ("const nan twice", lambda: UOp.const(NAN), lambda: UOp.const(float("nan")), True),
    ("const nan vs -nan", lambda: UOp.const(NAN), lambda: UOp.const(-NAN), True),
    ("const nan vs payload nan", lambda: UOp.const(NAN), lambda: UOp.const(PAYLOAD_NAN), True),
    ("const nan via UOp()", lambda: UOp.const(NAN), lambda: UOp(Ops.CONST, (), NAN), True),
    ("const 0.1 vs its float32", lambda: UOp.const(0.1),
     lambda: UOp.const(0.10000000149011612), True),
    ("const 1e39 vs inf", lambda: UOp.const(1e39), lambda: UOp.const(INF), True),
    ("const 16777217.0 vs 2**24", lambda: UOp.const(16777217.0),
     lambda: UOp.const(16777216.0), True),
    ("param twice", lambda: param(0, I32), lambda: param(0, I32), True),
    ("param with and without bounds", lambda: param(0, I32), lambda: param(0, I32, 0, 15), False),
    ("pointer param, two Ptr objects", lambda: param(7, Ptr(F32, 4)),
     lambda: param(7, Ptr(F32, 4)), True),
    ("pointer params of two sizes", lambda: param(7, Ptr(F32, 4)),
     lambda: param(7, Ptr(F32, 8)), False),
    ("cast twice", lambda: I.cast(F32), lambda: I.cast(F32), True),
    ("cast to two dtypes", lambda: I.cast(F32), lambda: I.cast(BOOL), False),
    ("src as list", lambda: I + J, lambda: UOp(Ops.ADD, [I, J]), True),
    ("src as generator", lambda: I + J, lambda: UOp(Ops.ADD, (s for s in (I, J))), True),
    ("call twice", lambda: UOp(Ops.CALL, (BODY_I, C3), CallArg("f")),
     lambda: UOp(Ops.CALL, (BODY_I, C3), CallArg("f")), True),
    ("calls of two names", lambda: UOp(Ops.CALL, (BODY_I, C3), CallArg("f")),
     lambda: UOp(Ops.CALL, (BODY_I, C3), CallArg("g")), False),
    ("alloc slots", lambda: UOp(Ops.ALLOC, (), ParamArg(1, Ptr(F32, 2))),
     lambda: UOp(Ops.ALLOC, (), ParamArg(2, Ptr(F32, 2))), False),
]  # fmt: skip


@pytest.mark.parametrize("label, build_a, build_b, one", CONSING, ids=[c[0] for c in CONSING])
def test_hash_consing(label, build_a, build_b, one):
    a, b = build_a(), build_b()
    assert (a is b) == one
    assert (a.id == b.id) == one


@pytest.mark.parametrize("value, dtype, stored", [
    (True, BOOL, True),
    (False, BOOL, False),
    (1, I32, 1),
    (INT_MIN, I32, INT_MIN),
    (1.0, F32, 1.0),
    (-0.0, F32, -0.0),
    (0.1, F32, 0.10000000149011612),
    (1e39, F32, INF),
    (-1e39, F32, -INF),
])  # fmt: skip
def test_const_dtype_and_normalised_arg(value, dtype, stored):
    node = UOp.const(value)
    assert node.dtype is dtype and type(node.arg) is type(stored) and repr(node.arg) == repr(stored)


@pytest.mark.parametrize("value", [NAN, -NAN, PAYLOAD_NAN])
def test_nan_constant_is_stored_as_one_canonical_nan(value):
    arg = UOp.const(value).arg
    assert math.isnan(arg) and struct.pack("<f", arg) == struct.pack("<I", 0x7FC00000)


def doubling(times):
    p = param(0, I32)
    for _ in range(times):
        p = p + p
    return p


def shared_sum():
    p, q = param(0, I32), param(1, I32)
    return (p + q) * (p + q) + (p + q)


@pytest.mark.parametrize("label, build, count", [
    ("p = p + p, 18 times", lambda: doubling(18), 19),
    ("p = p + p, 30 times", lambda: doubling(30), 31),
    ("(p+q)*(p+q)+(p+q)", shared_sum, 5),
    ("x+y", lambda: I + J, 3),
    ("x+x", lambda: I + I, 2),
])  # fmt: skip
def test_shared_node_count(label, build, count):
    assert len(build().toposort()) == count


# ---------------------------------------------------------------------------------------------
# Ids and the weak table
# ---------------------------------------------------------------------------------------------

_unique = itertools.count(900_000_001)


def fresh_const():
    """A constant no other test builds, so that it is new."""
    return UOp.const(next(_unique))


def test_ids_increase_with_creation():
    a, b, c = fresh_const(), fresh_const(), fresh_const()
    assert a.id < b.id < c.id


def test_ids_are_ints():
    assert type(fresh_const().id) is int


def test_a_src_has_a_smaller_id_than_its_user():
    for seed in range(20):
        for node in random_dag(random.Random(seed)).toposort():
            assert all(s.id < node.id for s in node.src), seed


def test_an_unreferenced_node_disappears():
    value = next(_unique)
    node = -UOp.const(value)
    gone = weakref.ref(node)
    old_id = node.id
    gc.collect()
    size = live_count()
    del node
    gc.collect()
    assert gone() is None
    assert live_count() == size - 2  # the NEG and its constant
    assert (-UOp.const(value)).id > old_id


def test_a_referenced_node_stays():
    value = next(_unique)
    user = -UOp.const(value)
    kept_id = user.src[0].id
    gc.collect()
    assert UOp.const(value) is user.src[0] and UOp.const(value).id == kept_id


# ---------------------------------------------------------------------------------------------
# Identity and immutability
# ---------------------------------------------------------------------------------------------

FIELDS = ["op", "src", "arg", "dtype", "shape", "space", "id"]


@pytest.mark.parametrize("field", FIELDS + ["vmin", "vmax", "safe", "new_field"])
def test_assigning_a_field_raises(field):
    node = I + J
    with pytest.raises(AttributeError):
        setattr(node, field, None)


@pytest.mark.parametrize("field", FIELDS)
def test_deleting_a_field_raises(field):
    node = param(987_000 + FIELDS.index(field), I32)  # a broken node can harm no other case
    with pytest.raises(AttributeError):
        delattr(node, field)
    assert hasattr(node, field)


@pytest.mark.parametrize("name", ["__eq__", "__ne__", "__hash__", "__lt__", "__le__", "__gt__",
                                  "__ge__"])  # fmt: skip
def test_no_comparison_or_hash_is_defined(name):
    assert getattr(UOp, name) is getattr(object, name)


def test_equality_is_identity_and_builds_nothing():
    assert (I == J) is False and (I != J) is True and (I == I) is True
    with pytest.raises(TypeError):
        I < J  # noqa: B015


# ---------------------------------------------------------------------------------------------
# 5.4 The type rules: what a valid node gets
# ---------------------------------------------------------------------------------------------

# (label, build, dtype, shape, space)
TYPES = [
    ("const bool", lambda: UOp.const(True), BOOL, (), "ALU"),
    ("const int", lambda: UOp.const(7), I32, (), "ALU"),
    ("const float", lambda: UOp.const(7.0), F32, (), "ALU"),
    ("param i32", lambda: I, I32, (), "ALU"),
    ("param bool", lambda: B, BOOL, (), "ALU"),
    ("param pointer", lambda: P4, Ptr(F32, 4), (4,), "MEM"),
    ("buffer", lambda: BUF8, Ptr(F32, 8), (8,), "MEM"),
    ("alloc", lambda: SCRATCH, Ptr(I32, 2), (2,), "MEM"),
    ("value call", lambda: INNER_CALL, I32, (), "ALU"),
    ("sink call", lambda: SINK_CALL, VOID, (), None),
    ("one alloc used twice", lambda: UOp(Ops.CALL, (ONE_ALLOC_TWICE,), CallArg("f")), VOID, (),
     None),
    ("cast i32 to f32", lambda: I.cast(F32), F32, (), "ALU"),
    ("cast f32 to bool", lambda: F.cast(BOOL), BOOL, (), "ALU"),
    ("neg i32", lambda: -I, I32, (), "ALU"),
    ("neg f32", lambda: -F, F32, (), "ALU"),
    ("recip", lambda: UOp(Ops.RECIP, (F,)), F32, (), "ALU"),
    ("exp2", lambda: UOp(Ops.EXP2, (F,)), F32, (), "ALU"),
    ("log2", lambda: UOp(Ops.LOG2, (F,)), F32, (), "ALU"),
    ("add i32", lambda: I + J, I32, (), "ALU"),
    ("add f32", lambda: F + F, F32, (), "ALU"),
    ("mul bool", lambda: B * B, BOOL, (), "ALU"),
    ("mul f32", lambda: F * F, F32, (), "ALU"),
    ("max bool", lambda: B.max(B), BOOL, (), "ALU"),
    ("max i32", lambda: I.max(J), I32, (), "ALU"),
    ("cmplt i32", lambda: I.lt(J), BOOL, (), "ALU"),
    ("cmplt f32", lambda: F.lt(F), BOOL, (), "ALU"),
    ("cmplt bool", lambda: B.lt(B), BOOL, (), "ALU"),
    ("cmpne f32", lambda: F.ne(F), BOOL, (), "ALU"),
    ("floordiv", lambda: I // J, I32, (), "ALU"),
    ("floormod", lambda: I % J, I32, (), "ALU"),
    ("where f32", lambda: B.where(F, F), F32, (), "ALU"),
    ("where bool", lambda: B.where(B, B), BOOL, (), "ALU"),
    ("index", lambda: IDX, Ptr(F32, 4), (4,), "MEM"),
    ("index of an after", lambda: index(UOp(Ops.AFTER, (P4, ST)), I), Ptr(F32, 4), (4,), "MEM"),
    ("load", lambda: LD, F32, (), "ALU"),
    ("load bool", lambda: load(param(6, Ptr(BOOL, 3)), C0), BOOL, (), "ALU"),
    ("store", lambda: ST, VOID, (), None),
    ("after", lambda: UOp(Ops.AFTER, (P4, ST, LD)), Ptr(F32, 4), (4,), "MEM"),
    ("after with no accesses", lambda: UOp(Ops.AFTER, (P4,)), Ptr(F32, 4), (4,), "MEM"),
    ("sink", lambda: SNK, VOID, (), None),
]  # fmt: skip


@pytest.mark.parametrize("label, build, dtype, shape, space", TYPES, ids=[t[0] for t in TYPES])
def test_valid_node_types(label, build, dtype, shape, space):
    node = build()
    assert (node.dtype, node.shape, node.space) == (dtype, shape, space)
    if not isinstance(dtype, Ptr):
        assert node.dtype is dtype


def test_infer_is_the_checker():
    infer = speed.plain(typecheck, "infer")  # the plain checker (the overlay's twin calls it)
    assert infer(Ops.ADD, (I, J), None) is I32
    with pytest.raises(UOpError, match="^ADD: needs two srcs of the same dtype$"):
        infer(Ops.ADD, (I, F), None)


# ---------------------------------------------------------------------------------------------
# 5.4 The type rules: every message, in checking order
# ---------------------------------------------------------------------------------------------

NO_BUFFER = "a body may not contain a CALL or a BUFFER (global buffers come in as params)"
NOT_A_VALUE = "every src must be a value in ALU space"
NOT_ELEMENT = "the stored value must be a scalar of the element dtype"
CALL_F = CallArg("f")

# (op, srcs, arg, message)
ERRORS = [
    # CONST
    (Ops.CONST, (I,), 1, "CONST: takes no srcs"),
    (Ops.CONST, (I,), "x", "CONST: takes no srcs"),
    (Ops.CONST, (), "1", "CONST: value must be a bool, int or float"),
    (Ops.CONST, (), None, "CONST: value must be a bool, int or float"),
    (Ops.CONST, (), [1], "CONST: value must be a bool, int or float"),
    (Ops.CONST, (), 2**31, "CONST: 2147483648 does not fit in int32"),
    (Ops.CONST, (), -(2**31) - 1, "CONST: -2147483649 does not fit in int32"),
    # PARAM, BUFFER, ALLOC
    (Ops.PARAM, (I,), ParamArg(0, I32), "PARAM: takes no srcs"),
    (Ops.BUFFER, (I,), ParamArg(0, Ptr(F32, 4)), "BUFFER: takes no srcs"),
    (Ops.ALLOC, (I,), ParamArg(0, Ptr(F32, 4)), "ALLOC: takes no srcs"),
    (Ops.PARAM, (), 0, "PARAM: arg must be a ParamArg"),
    (Ops.PARAM, (), I32, "PARAM: arg must be a ParamArg"),
    (Ops.BUFFER, (), Ptr(F32, 4), "BUFFER: arg must be a ParamArg"),
    (Ops.ALLOC, (), None, "ALLOC: arg must be a ParamArg"),
    # (two checks this project adds to the spec's table)
    (Ops.PARAM, (), ParamArg(-1, I32), "PARAM: the slot must be a non-negative int"),
    (Ops.PARAM, (), ParamArg(True, I32), "PARAM: the slot must be a non-negative int"),
    (Ops.ALLOC, (), ParamArg("0", Ptr(F32, 2)), "ALLOC: the slot must be a non-negative int"),
    (Ops.PARAM, (), ParamArg(0, I32, 0.0, 5), "PARAM: vmin and vmax must be ints or None"),
    (Ops.PARAM, (), ParamArg(0, I32, 0, False), "PARAM: vmin and vmax must be ints or None"),
    (Ops.PARAM, (), ParamArg(0, I32, False), "PARAM: vmin and vmax must be ints or None"),
    (Ops.PARAM, (), ParamArg(0, VOID), "PARAM: a scalar param must be bool, i32 or f32"),
    (Ops.PARAM, (), ParamArg(0, "f32"), "PARAM: needs a pointer dtype"),
    (Ops.BUFFER, (), ParamArg(0, F32), "BUFFER: needs a pointer dtype"),
    (Ops.ALLOC, (), ParamArg(0, I32), "ALLOC: needs a pointer dtype"),
    (Ops.PARAM, (), ParamArg(0, Ptr(F32, 0)), "PARAM: size must be positive"),
    (Ops.BUFFER, (), ParamArg(0, Ptr(F32, -1)), "BUFFER: size must be positive"),
    (Ops.ALLOC, (), ParamArg(0, Ptr(I32, 0)), "ALLOC: size must be positive"),
    # CALL
    (Ops.CALL, (), CallArg("f"), "CALL: needs a body and a CallArg"),
    (Ops.CALL, (BODY_I, C3), "f", "CALL: needs a body and a CallArg"),
    (Ops.CALL, (BODY_I, C3), None, "CALL: needs a body and a CallArg"),
    (Ops.CALL, (BODY_WITH_CALL, C3), CALL_F, f"CALL: {NO_BUFFER}"),
    (Ops.CALL, (BODY_WITH_BUFFER,), CALL_F, f"CALL: {NO_BUFFER}"),
    (Ops.CALL, (BUF8,), CALL_F, f"CALL: {NO_BUFFER}"),
    (Ops.CALL, (INNER_CALL, C3), CALL_F, f"CALL: {NO_BUFFER}"),
    (Ops.CALL, (BODY_PARAM_THEN_BUFFER,), CALL_F, f"CALL: {NO_BUFFER}"),
    (Ops.CALL, (BODY_I,), CallArg("f"), "CALL: PARAM slot 0 has no argument"),
    (Ops.CALL, (BODY_F, C1F), CallArg("f"), "CALL: PARAM slot 1 has no argument"),
    (Ops.CALL, (BODY_F, C1F, C3), CALL_F, "CALL: argument 1 has dtype i32, the body wants f32"),
    (Ops.CALL, (BODY_I, B), CallArg("f"), "CALL: argument 0 has dtype bool, the body wants i32"),
    (Ops.CALL, (BODY_F_THEN_I, C1F, C3), CALL_F,
     "CALL: argument 1 has dtype i32, the body wants f32"),  # toposort order, not slot order
    (Ops.CALL, (PTR_BODY, BUF8), CALL_F,
     "CALL: argument 0 has dtype ptr<f32,8>, the body wants ptr<f32,4>"),
    (Ops.CALL, (PTR_BODY, C1F), CALL_F,
     "CALL: argument 0 has dtype f32, the body wants ptr<f32,4>"),
    (Ops.CALL, (BODY_I, P4), CALL_F, "CALL: argument 0 has dtype ptr<f32,4>, the body wants i32"),
    (Ops.CALL, (BODY_0_15, F), CALL_F, "CALL: argument 0 has dtype f32, the body wants i32"),
    (Ops.CALL, (BODY_0_15, UOp.const(100)), CALL_F,
     "CALL: argument 0 is 100, beyond [0, 15] declared by PARAM slot 0"),
    (Ops.CALL, (BODY_0_15, UOp.const(-1)), CALL_F,
     "CALL: argument 0 is -1, beyond [0, 15] declared by PARAM slot 0"),
    (Ops.CALL, (BODY_0_15, OUTER_10_20), CALL_F,
     "CALL: argument 0 may take values in [10, 20], beyond [0, 15] declared by PARAM slot 0"),
    (Ops.CALL, (BODY_0_15, OUTER_10_20 + 1), CALL_F,
     "CALL: argument 0 may take values in [11, 21], beyond [0, 15] declared by PARAM slot 0"),
    (Ops.CALL, (BODY_0_15, I), CALL_F,
     f"CALL: argument 0 may take values in [{INT_MIN}, {INT_MAX}], beyond [0, 15] declared by "
     "PARAM slot 0"),
    (Ops.CALL, (LOWER_ONLY + 1, UOp.const(-4)), CALL_F,
     f"CALL: argument 0 is -4, beyond [-3, {INT_MAX}] declared by PARAM slot 0"),
    (Ops.CALL, (BODY_I, C3, ST), CallArg("f"), "CALL: an argument must have a value"),
    (Ops.CALL, (BODY_I, C3, SNK), CallArg("f"), "CALL: an argument must have a value"),
    (Ops.CALL, (TWO_ALLOCS_ONE_SLOT,), CallArg("f"), "CALL: two ALLOCs use slot 5"),
    # every ALU op
    (Ops.ADD, (), None, "ADD: needs at least one src"),
    (Ops.NEG, (), None, "NEG: needs at least one src"),
    (Ops.CAST, (), I32, "CAST: needs at least one src"),
    (Ops.WHERE, (), None, "WHERE: needs at least one src"),
    (Ops.ADD, (P4, P4), None, "ADD: every src must be a value in ALU space, got PARAM in MEM"),
    (Ops.ADD, (P4, F), None, "ADD: every src must be a value in ALU space, got PARAM in MEM"),
    (Ops.MUL, (F, ST), None, "MUL: every src must be a value in ALU space, got STORE in None"),
    (Ops.NEG, (IDX,), None, "NEG: every src must be a value in ALU space, got INDEX in MEM"),
    (Ops.CMPLT, (SNK, I), None, "CMPLT: every src must be a value in ALU space, got SINK in None"),
    (Ops.CAST, (BUF8,), I32, "CAST: every src must be a value in ALU space, got BUFFER in MEM"),
    (Ops.ADD, (SINK_CALL, I), None, f"ADD: {NOT_A_VALUE}, got CALL in None"),
    # CAST
    (Ops.CAST, (I,), None, "CAST: needs one src and a value dtype as arg"),
    (Ops.CAST, (I,), VOID, "CAST: needs one src and a value dtype as arg"),
    (Ops.CAST, (I,), Ptr(F32, 4), "CAST: needs one src and a value dtype as arg"),
    (Ops.CAST, (I,), "f32", "CAST: needs one src and a value dtype as arg"),
    (Ops.CAST, (I, I), F32, "CAST: needs one src and a value dtype as arg"),
    # WHERE
    (Ops.WHERE, (I, I, I), None, "WHERE: needs a bool condition and two values"),
    (Ops.WHERE, (B, I), None, "WHERE: needs a bool condition and two values"),
    (Ops.WHERE, (B, I, I, I), None, "WHERE: needs a bool condition and two values"),
    (Ops.WHERE, (I, I, F), None, "WHERE: needs a bool condition and two values"),
    (Ops.WHERE, (B, I, F), None, "WHERE: both branches must have the same dtype"),
    (Ops.WHERE, (B, B, I), None, "WHERE: both branches must have the same dtype"),
    # NEG
    (Ops.NEG, (B,), None, "NEG: needs one int or float"),
    (Ops.NEG, (I, I), None, "NEG: needs one int or float"),
    # RECIP, EXP2, LOG2
    (Ops.RECIP, (I,), None, "RECIP: needs one float"),
    (Ops.EXP2, (B,), None, "EXP2: needs one float"),
    (Ops.LOG2, (F, F), None, "LOG2: needs one float"),
    # ADD, MUL, MAX, CMPLT, CMPNE, FLOORDIV, FLOORMOD
    (Ops.ADD, (I, F), None, "ADD: needs two srcs of the same dtype"),
    (Ops.ADD, (I,), None, "ADD: needs two srcs of the same dtype"),
    (Ops.ADD, (I, I, I), None, "ADD: needs two srcs of the same dtype"),
    (Ops.ADD, (B, B, B), None, "ADD: needs two srcs of the same dtype"),
    (Ops.MUL, (F, I), None, "MUL: needs two srcs of the same dtype"),
    (Ops.MAX, (B, I), None, "MAX: needs two srcs of the same dtype"),
    (Ops.CMPLT, (I, F), None, "CMPLT: needs two srcs of the same dtype"),
    (Ops.CMPNE, (F, B), None, "CMPNE: needs two srcs of the same dtype"),
    (Ops.FLOORDIV, (I,), None, "FLOORDIV: needs two srcs of the same dtype"),
    (Ops.FLOORDIV, (F, I), None, "FLOORDIV: needs two srcs of the same dtype"),
    (Ops.FLOORMOD, (I, F), None, "FLOORMOD: needs two srcs of the same dtype"),
    (Ops.ADD, (B, B), None, "ADD: ADD is not defined on bool (CMPNE is xor)"),
    (Ops.FLOORDIV, (F, F), None, "FLOORDIV: needs ints"),
    (Ops.FLOORMOD, (B, B), None, "FLOORMOD: needs ints"),
    # INDEX
    (Ops.INDEX, (), None, "INDEX: needs a pointer and an index"),
    (Ops.INDEX, (P4,), None, "INDEX: needs a pointer and an index"),
    (Ops.INDEX, (P4, I, I), None, "INDEX: needs a pointer and an index"),
    (Ops.INDEX, (I, I), None, "INDEX: src[0] must be a buffer-like pointer"),
    (Ops.INDEX, (I, F), None, "INDEX: src[0] must be a buffer-like pointer"),
    (Ops.INDEX, (IDX, I), None, "INDEX: src[0] must be a buffer-like pointer"),
    (Ops.INDEX, (ST, I), None, "INDEX: src[0] must be a buffer-like pointer"),
    (Ops.INDEX, (P4, F), None, "INDEX: the index must be a scalar i32"),
    (Ops.INDEX, (P4, B), None, "INDEX: the index must be a scalar i32"),
    (Ops.INDEX, (P4, P4), None, "INDEX: the index must be a scalar i32"),
    (Ops.INDEX, (P4, WIDE_I32), None, "INDEX: the index must be a scalar i32"),
    # LOAD
    (Ops.LOAD, (), None, "LOAD: needs one INDEX"),
    (Ops.LOAD, (P4,), None, "LOAD: needs one INDEX"),
    (Ops.LOAD, (I,), None, "LOAD: needs one INDEX"),
    (Ops.LOAD, (IDX, IDX), None, "LOAD: needs one INDEX"),
    # STORE
    (Ops.STORE, (P4, F), None, "STORE: needs an INDEX and a value"),
    (Ops.STORE, (IDX,), None, "STORE: needs an INDEX and a value"),
    (Ops.STORE, (IDX, F, F), None, "STORE: needs an INDEX and a value"),
    (Ops.STORE, (IDX, I), None, f"STORE: {NOT_ELEMENT}"),
    (Ops.STORE, (IDX, P4), None, f"STORE: {NOT_ELEMENT}"),
    (Ops.STORE, (IDX, ST), None, f"STORE: {NOT_ELEMENT}"),
    (Ops.STORE, (IDX, WIDE_F32), None, f"STORE: {NOT_ELEMENT}"),
    # AFTER
    (Ops.AFTER, (), None, "AFTER: src[0] must be a pointer"),
    (Ops.AFTER, (I, ST), None, "AFTER: src[0] must be a pointer"),
    (Ops.AFTER, (ST,), None, "AFTER: src[0] must be a pointer"),
    (Ops.AFTER, (P4, I), None, "AFTER: the other srcs must be STOREs or LOADs"),
    (Ops.AFTER, (P4, ST, IDX), None, "AFTER: the other srcs must be STOREs or LOADs"),
    (Ops.AFTER, (P4, SNK), None, "AFTER: the other srcs must be STOREs or LOADs"),
    # SINK
    (Ops.SINK, (), None, "SINK: needs one or more STOREs"),
    (Ops.SINK, (LD,), None, "SINK: needs one or more STOREs"),
    (Ops.SINK, (ST, I), None, "SINK: needs one or more STOREs"),
    (Ops.SINK, (SNK,), None, "SINK: needs one or more STOREs"),
    # not an op
    ("ADD", (I, I), None, "unknown op ADD"),
    (None, (), None, "unknown op None"),
    (99, (), 1, "unknown op 99"),
]  # fmt: skip


def error_id(case):
    return f"{case[3]} | arg={case[2]!r}"[:100]


@pytest.mark.parametrize("op, srcs, arg, message", ERRORS, ids=[error_id(c) for c in ERRORS])
def test_type_error_message(op, srcs, arg, message):
    with pytest.raises(UOpError) as info:
        UOp(op, srcs, arg)
    assert str(info.value) == message


@pytest.mark.parametrize("op, srcs, arg, message", ERRORS, ids=[error_id(c) for c in ERRORS])
def test_failed_construction_creates_no_node(op, srcs, arg, message):
    first = fresh_const().id
    size = live_count()
    with pytest.raises(UOpError) as info:
        UOp(op, srcs, arg)
    assert live_count() == size, info  # measured while the traceback is still alive
    assert fresh_const().id == first + 1  # and no id was spent


# Arguments whose range lies inside [0, 15]: the bounds themselves, an outer param declared
# with the same or a narrower range, an expression whose computed range stays inside.
INSIDE_0_15 = {
    "lower bound": lambda: UOp.const(0),
    "upper bound": lambda: UOp.const(15),
    "same range": lambda: param(6, I32, 0, 15),
    "narrower range": lambda: param(6, I32, 3, 4),
    "expression": lambda: (OUTER_10_20 - 5).max(0),  # [5, 15]
    "the PARAM itself": lambda: P_0_15,
}


@pytest.mark.parametrize("make", INSIDE_0_15.values(), ids=INSIDE_0_15.keys())
def test_an_argument_inside_the_declared_range_is_taken(make):
    argument = make()
    call = UOp(Ops.CALL, (BODY_0_15, argument), CALL_F)
    assert call.src[1] is argument and 0 <= argument.vmin <= argument.vmax <= 15


def test_a_range_is_checked_only_where_one_is_declared():
    """An i32 PARAM without bounds, and every f32 and bool PARAM, takes any argument."""
    body = I.cast(F32) + F + B.cast(F32)
    wide = [UOp.const(INT_MIN), UOp.const(math.nan), UOp.const(True)]
    assert UOp(Ops.CALL, (body, *wide), CALL_F).dtype is F32
    assert UOp(Ops.CALL, (LOWER_ONLY + 1, UOp.const(INT_MAX)), CALL_F).dtype is I32


UNHASHABLE_SCRIPT = """
from uopc import F32, Ops, ParamArg, Ptr, UOp, UOpError
f = UOp(Ops.PARAM, (), ParamArg(0, F32))
p = UOp(Ops.PARAM, (), ParamArg(1, Ptr(F32, 2)))
cases = [(Ops.RECIP, (f,)), (Ops.EXP2, (f,)), (Ops.AFTER, (p,))]
for op, srcs in cases:  # the first node of its op in this process, so its shelf is new
    try:
        UOp(op, srcs, [1])
        print("built")
    except UOpError as error:
        print(str(error).split(":")[0])
"""


@pytest.mark.child_process
def test_unhashable_arg_is_a_uop_error_even_for_the_first_node_of_its_op():
    """Run in a fresh interpreter, where no RECIP, EXP2 or AFTER node exists yet."""
    env = {**os.environ, "PYTHONPATH": str(pathlib.Path(__file__).resolve().parent.parent)}
    run = subprocess.run([sys.executable, "-c", UNHASHABLE_SCRIPT], capture_output=True,
                         text=True, env=env)  # fmt: skip
    assert run.stdout.split() == ["RECIP", "EXP2", "AFTER"], run.stderr[-300:]


# (label, built through the convenience API, the same node built with UOp(...))
CONVENIENCE = [
    ("a + b", lambda: I + J, lambda: UOp(Ops.ADD, (I, J))),
    ("a * b", lambda: I * J, lambda: UOp(Ops.MUL, (I, J))),
    ("-a", lambda: -I, lambda: UOp(Ops.NEG, (I,))),
    ("a - b", lambda: I - J, lambda: UOp(Ops.ADD, (I, UOp(Ops.NEG, (J,))))),
    ("a // b", lambda: I // J, lambda: UOp(Ops.FLOORDIV, (I, J))),
    ("a % b", lambda: I % J, lambda: UOp(Ops.FLOORMOD, (I, J))),
    ("a.lt(b)", lambda: I.lt(J), lambda: UOp(Ops.CMPLT, (I, J))),
    ("a.ne(b)", lambda: I.ne(J), lambda: UOp(Ops.CMPNE, (I, J))),
    ("a.max(b)", lambda: I.max(J), lambda: UOp(Ops.MAX, (I, J))),
    ("c.where(a, b)", lambda: B.where(I, J), lambda: UOp(Ops.WHERE, (B, I, J))),
    ("a.cast(f32)", lambda: I.cast(F32), lambda: UOp(Ops.CAST, (I,), F32)),
    ("i32 * 2", lambda: I * 2, lambda: UOp(Ops.MUL, (I, UOp(Ops.CONST, (), 2)))),
    ("f32 * 2.0", lambda: F * 2.0, lambda: UOp(Ops.MUL, (F, UOp(Ops.CONST, (), 2.0)))),
    ("f32 * 2", lambda: F * 2, lambda: UOp(Ops.MUL, (F, UOp(Ops.CONST, (), 2.0)))),
    ("bool * True", lambda: B * True, lambda: UOp(Ops.MUL, (B, UOp(Ops.CONST, (), True)))),
    ("i32 - 1", lambda: I - 1, lambda: UOp(Ops.ADD, (I, UOp(Ops.NEG, (UOp.const(1),))))),
    ("const(1)", lambda: UOp.const(1), lambda: UOp(Ops.CONST, (), 1)),
    ("sink(store)", lambda: UOp.sink(ST), lambda: UOp(Ops.SINK, (ST,))),
]  # fmt: skip


@pytest.mark.parametrize("label, api, plain", CONVENIENCE, ids=[c[0] for c in CONVENIENCE])
def test_convenience_api(label, api, plain):
    assert api() is plain()


@pytest.mark.parametrize("label, build, message", [
    ("i32 + True", lambda: I + True, "ADD: needs two srcs of the same dtype"),
    ("i32 * 2.0", lambda: I * 2.0, "MUL: needs two srcs of the same dtype"),
    ("bool + bool", lambda: B + B, "ADD: ADD is not defined on bool (CMPNE is xor)"),
])  # fmt: skip
def test_convenience_mismatch_fails_the_type_check(label, build, message):
    with pytest.raises(UOpError) as info:
        build()
    assert str(info.value) == message


# ---------------------------------------------------------------------------------------------
# 5.3 toposort
# ---------------------------------------------------------------------------------------------


def reference_toposort(root, skip=None):
    """The recursive definition of spec §5.3, for small graphs only."""
    order, seen = [], set()

    def visit(node):
        if node in seen:
            return
        seen.add(node)
        if skip is not None and skip(node):
            return
        for s in node.src:
            visit(s)
        order.append(node)

    visit(root)
    return order


def named_graph(name):
    """Small graphs whose order is written out by hand: returns (root, {label: node})."""
    x, y, z = param(10, I32), param(11, I32), param(12, I32)
    n = {"x": x, "y": y, "z": z}
    if name == "x":
        root = x
    elif name == "x+y":
        root = n["add"] = x + y
    elif name == "x+x":
        root = n["add"] = x + x
    elif name == "x*y+z":
        n["mul"] = x * y
        root = n["add"] = n["mul"] + z
    elif name == "z+x*y":
        n["mul"] = x * y
        root = n["add"] = z + n["mul"]
    elif name == "(x+y)*(y+x)":
        n["x+y"], n["y+x"] = x + y, y + x
        root = n["mul"] = n["x+y"] * n["y+x"]
    elif name == "s*s+s":
        n["s"] = x + y
        n["s*s"] = n["s"] * n["s"]
        root = n["root"] = n["s*s"] + n["s"]
    elif name == "where(x<y, y, x)":
        n["lt"] = x.lt(y)
        root = n["where"] = n["lt"].where(y, x)
    elif name == "store":
        n["p"] = param(13, Ptr(I32, 4))
        n["i1"], n["i2"] = index(n["p"], x), index(n["p"], y)
        n["load"] = UOp(Ops.LOAD, (n["i2"],))
        root = n["store"] = UOp(Ops.STORE, (n["i1"], n["load"]))
    return root, n


TOPO_ORDERS = [
    ("x", ["x"]),
    ("x+y", ["x", "y", "add"]),
    ("x+x", ["x", "add"]),
    ("x*y+z", ["x", "y", "mul", "z", "add"]),
    ("z+x*y", ["z", "x", "y", "mul", "add"]),
    ("(x+y)*(y+x)", ["x", "y", "x+y", "y+x", "mul"]),
    ("s*s+s", ["x", "y", "s", "s*s", "root"]),
    ("where(x<y, y, x)", ["x", "y", "lt", "where"]),
    ("store", ["p", "x", "i1", "y", "i2", "load", "store"]),
]


@pytest.mark.parametrize("name, order", TOPO_ORDERS, ids=[t[0] for t in TOPO_ORDERS])
def test_toposort_order_by_hand(name, order):
    root, nodes = named_graph(name)
    label = {id(node): key for key, node in nodes.items()}
    assert [label[id(node)] for node in root.toposort()] == order


def random_dag(r, size=25):
    """A random i32 DAG over three params and a few constants, with much sharing."""
    pool = [param(20, I32), param(21, I32), param(22, I32), UOp.const(r.randint(-3, 3))]
    for _ in range(size):
        op = r.choice([Ops.ADD, Ops.MUL, Ops.MAX, Ops.NEG, Ops.FLOORDIV])
        if op is Ops.NEG:
            pool.append(-r.choice(pool))
        else:
            pool.append(UOp(op, (r.choice(pool), r.choice(pool))))
    return pool[-1] + pool[-2] + r.choice(pool)


def skip_only(chosen):
    return lambda node: node is chosen


SKIPS = [
    ("no skip", lambda nodes: None),
    ("skip MUL", lambda nodes: lambda n: n.op is Ops.MUL),
    ("skip params", lambda nodes: lambda n: n.op is Ops.PARAM),
    ("skip one node", lambda nodes: skip_only(nodes[len(nodes) // 2])),
    ("skip the root", lambda nodes: skip_only(nodes[-1])),
]


@pytest.mark.parametrize("label, make_skip", SKIPS, ids=[s[0] for s in SKIPS])
def test_toposort_matches_the_recursive_definition(label, make_skip):
    for seed in range(60):
        root = random_dag(random.Random(seed))
        skip = make_skip(reference_toposort(root))
        assert root.toposort(skip) == reference_toposort(root, skip), seed


@pytest.mark.parametrize("seed", range(5))
def test_toposort_each_node_once_after_its_srcs(seed):
    order = random_dag(random.Random(seed)).toposort()
    position = {id(node): k for k, node in enumerate(order)}
    assert len(position) == len(order)
    assert all(position[id(s)] < position[id(node)] for node in order for s in node.src)


@pytest.mark.parametrize("shape, order", [
    ("(x*y+x)+y", ["x", "x*y+x", "y", "root"]),  # x and y are reachable another way
    ("x*y+y", ["y", "root"]),  # x is reachable only through the skipped x*y
])  # fmt: skip
def test_toposort_skip_leaves_out_what_is_reachable_only_through_it(shape, order):
    x, y = param(10, I32), param(11, I32)
    mul = x * y
    nodes = {"x": x, "y": y, "x*y+x": mul + x}
    nodes["root"] = nodes["x*y+x"] + y if shape == "(x*y+x)+y" else mul + y
    label = {id(node): key for key, node in nodes.items()}
    assert [label[id(node)] for node in nodes["root"].toposort(lambda n: n is mul)] == order


# ---------------------------------------------------------------------------------------------
# 6.4 Ranges: the table, row by row
# ---------------------------------------------------------------------------------------------


def ranged(lo, hi, slot=30):
    return param(slot, I32, lo, hi)


i = ranged(0, 15, 31)
j = ranged(0, 3, 32)
big = ranged(0, 2**30, 33)
unsafe = big * 4  # FULL, not safe


def square(bound):
    x = ranged(-bound, bound)
    return x * x


def value_call(dtype):
    body = {I32: I + 1, BOOL: I.lt(1), F32: F * 2.0}[dtype]
    args = (C3, C1F) if dtype is F32 else (C3,)
    return UOp(Ops.CALL, (body, *args), CallArg("v"))


# (label, build, (vmin, vmax, safe))
RANGES = [
    # the reference values of spec §6.4
    ("i*4", lambda: i * 4, (0, 60, True)),
    ("i*4+j", lambda: i * 4 + j, (0, 63, True)),
    ("(i*4+j)//4", lambda: (i * 4 + j) // 4, (0, 15, True)),
    ("big*4", lambda: big * 4, FULL_UNSAFE),
    ("i-j", lambda: i - j, (-3, 15, True)),
    ("x*x, x in [-46340, 46340]", lambda: square(46340), (-2147395600, 2147395600, True)),
    ("x*x, x in [-50000, 50000]", lambda: square(50000), FULL_UNSAFE),
    ("x%4, x in [9, 10]", lambda: ranged(9, 10) % 4, (1, 2, True)),
    # not an int or bool value
    ("f32 param", lambda: F, UNBOUNDED),
    ("f32 arithmetic", lambda: F * 2.0, UNBOUNDED),
    ("store (void)", lambda: ST, UNBOUNDED),
    ("sink (void)", lambda: SNK, UNBOUNDED),
    ("pointer param", lambda: P4, UNBOUNDED),
    ("index (MEM)", lambda: IDX, UNBOUNDED),
    ("after (MEM)", lambda: UOp(Ops.AFTER, (P4, ST)), UNBOUNDED),
    # CONST
    ("const 7", lambda: UOp.const(7), (7, 7, True)),
    ("const INT_MIN", lambda: UOp.const(INT_MIN), (INT_MIN, INT_MIN, True)),
    ("const True", lambda: UOp.const(True), (1, 1, True)),
    ("const False", lambda: UOp.const(False), (0, 0, True)),
    # PARAM
    ("param bool", lambda: B, (0, 1, True)),
    ("param i32 declared", lambda: ranged(-4, 9), (-4, 9, True)),
    ("param i32 undeclared", lambda: I, (INT_MIN, INT_MAX, True)),
    ("param i32 vmin only", lambda: param(34, I32, 5, None), (5, INT_MAX, True)),
    ("param i32 vmax only", lambda: param(34, I32, None, -5), (INT_MIN, -5, True)),
    # LOAD
    ("load bool", lambda: load(param(35, Ptr(BOOL, 4)), C0), (0, 1, True)),
    ("load i32", lambda: load(param(35, Ptr(I32, 4)), C0), (INT_MIN, INT_MAX, True)),
    ("load f32", lambda: LD, UNBOUNDED),
    # CAST
    ("cast f32 -> bool", lambda: F.cast(BOOL), (0, 1, True)),
    ("cast i32 {0} -> bool", lambda: ranged(0, 0).cast(BOOL), (0, 0, True)),
    ("cast i32 [-2,3] -> bool", lambda: ranged(-2, 3).cast(BOOL), (0, 1, True)),
    ("cast i32 [0,3] -> bool", lambda: j.cast(BOOL), (0, 1, True)),
    ("cast i32 [1,5] -> bool", lambda: ranged(1, 5).cast(BOOL), (1, 1, True)),
    ("cast i32 [-5,-1] -> bool", lambda: ranged(-5, -1).cast(BOOL), (1, 1, True)),
    ("cast bool -> bool", lambda: B.cast(BOOL), (0, 1, True)),
    ("cast False -> bool", lambda: UOp.const(False).cast(BOOL), (0, 0, True)),
    ("cast True -> bool", lambda: UOp.const(True).cast(BOOL), (1, 1, True)),
    ("cast bool -> i32", lambda: B.cast(I32), (0, 1, True)),
    ("cast True -> i32", lambda: UOp.const(True).cast(I32), (1, 1, True)),
    ("cast f32 -> i32", lambda: F.cast(I32), (INT_MIN, INT_MAX, True)),
    ("cast i32 -> i32", lambda: i.cast(I32), (0, 15, True)),
    ("cast unsafe i32 -> i32", lambda: unsafe.cast(I32), FULL_UNSAFE),
    ("cast i32 -> f32", lambda: i.cast(F32), UNBOUNDED),
    # NEG
    ("-i", lambda: -i, (-15, 0, True)),
    ("-[INT_MIN, 0] overflows", lambda: -ranged(INT_MIN, 0), FULL_UNSAFE),
    ("-[INT_MIN+1, 5]", lambda: -ranged(INT_MIN + 1, 5), (-5, INT_MAX, True)),
    # ADD
    ("i+j", lambda: i + j, (0, 18, True)),
    ("[INT_MAX-1, INT_MAX] + 1", lambda: ranged(INT_MAX - 1, INT_MAX) + 1, FULL_UNSAFE),
    ("[INT_MIN, -5] + -1", lambda: ranged(INT_MIN, -5) + -1, FULL_UNSAFE),
    ("unsafe + i", lambda: unsafe + i, FULL_UNSAFE),
    # MUL
    ("[-3,2]*[-5,4]", lambda: ranged(-3, 2) * ranged(-5, 4, 36), (-12, 15, True)),
    ("i*-4", lambda: i * -4, (-60, 0, True)),
    ("unsafe*0 fits but is not safe", lambda: unsafe * 0, (0, 0, False)),
    # MAX
    ("max(i, j)", lambda: i.max(j), (0, 15, True)),
    ("max([-5,-1], [-3,2])", lambda: ranged(-5, -1).max(ranged(-3, 2, 36)), (-3, 2, True)),
    ("max(unsafe, i)", lambda: unsafe.max(i), (0, INT_MAX, False)),
    ("max of bools", lambda: B.max(UOp.const(False)), (0, 1, True)),
    # CMPLT, CMPNE on f32
    ("f32 <", lambda: F.lt(C1F), (0, 1, True)),
    ("f32 !=", lambda: F.ne(C1F), (0, 1, True)),
    # CMPLT
    ("j < [4,9]: always", lambda: j.lt(ranged(4, 9)), (1, 1, True)),
    ("[4,9] < j: never", lambda: ranged(4, 9).lt(j), (0, 0, True)),
    ("[3,9] < j: never (touching)", lambda: ranged(3, 9).lt(j), (0, 0, True)),
    ("i < j: either", lambda: i.lt(j), (0, 1, True)),
    ("j < [3,9]: either", lambda: j.lt(ranged(3, 9)), (0, 1, True)),
    ("3 < 3", lambda: UOp.const(3).lt(UOp.const(3)), (0, 0, True)),
    ("False < True", lambda: UOp.const(False).lt(UOp.const(True)), (1, 1, True)),
    # CMPNE
    ("j != [4,9]: disjoint", lambda: j.ne(ranged(4, 9)), (1, 1, True)),
    ("[4,9] != j: disjoint", lambda: ranged(4, 9).ne(j), (1, 1, True)),
    ("3 != 3", lambda: UOp.const(3).ne(UOp.const(3)), (0, 0, True)),
    ("[3,3] != 3", lambda: ranged(3, 3).ne(UOp.const(3)), (0, 0, True)),
    ("i != j: overlap", lambda: i.ne(j), (0, 1, True)),
    ("j != [3,5]: touching", lambda: j.ne(ranged(3, 5)), (0, 1, True)),
    ("bool != bool", lambda: B.ne(B), (0, 1, True)),
    # WHERE
    ("where(always, i, unsafe)", lambda: j.lt(ranged(4, 9)).where(i, unsafe), (0, 15, True)),
    ("where(never, unsafe, j)", lambda: ranged(4, 9).lt(j).where(unsafe, j), (0, 3, True)),
    ("where(b, i, [-5,2])", lambda: B.where(i, ranged(-5, 2)), (-5, 15, True)),
    ("where(b, i, unsafe)", lambda: B.where(i, unsafe), FULL_UNSAFE),
    ("where(b, True, False)", lambda: B.where(UOp.const(True), UOp.const(False)), (0, 1, True)),
    ("where(b, f, f)", lambda: B.where(F, F), UNBOUNDED),
    # FLOORDIV by a single non-zero point
    ("i // 4", lambda: i // 4, (0, 3, True)),
    ("i // -4", lambda: i // -4, (-4, 0, True)),
    ("[-7,7] // 2", lambda: ranged(-7, 7) // 2, (-4, 3, True)),
    ("i // -1", lambda: i // -1, (-15, 0, True)),
    ("[INT_MIN, 0] // -1 wraps", lambda: ranged(INT_MIN, 0) // -1, FULL_UNSAFE),
    ("i // [3,3]", lambda: i // ranged(3, 3), (0, 5, True)),
    ("unsafe // 4", lambda: unsafe // 4, (INT_MIN // 4, INT_MAX // 4, False)),
    # FLOORMOD by a single non-zero point
    ("i % 4", lambda: i % 4, (0, 3, True)),
    ("i % -4", lambda: i % -4, (-3, 0, True)),
    ("[9,10] % -4", lambda: ranged(9, 10) % -4, (-3, -2, True)),
    ("[-3,-1] % 4", lambda: ranged(-3, -1) % 4, (1, 3, True)),
    ("[8,11] % 4", lambda: ranged(8, 11) % 4, (0, 3, True)),
    ("[3,4] % 4", lambda: ranged(3, 4) % 4, (0, 3, True)),
    ("i % 1", lambda: i % 1, (0, 0, True)),
    # FLOORDIV, divisor excludes 0 and is not a point
    ("i // [1,4]", lambda: i // ranged(1, 4), (-15, 15, True)),
    ("[-20,5] // [-3,-1]", lambda: ranged(-20, 5) // ranged(-3, -1, 36), (-20, 20, True)),
    ("[INT_MIN,0] // [-2,-1]", lambda: ranged(INT_MIN, 0) // ranged(-2, -1, 36), FULL_UNSAFE),
    # FLOORMOD, divisor excludes 0 and is not a point
    ("i % [2,5]", lambda: i % ranged(2, 5), (0, 4, True)),
    ("i % [-5,-2]", lambda: i % ranged(-5, -2), (-4, 0, True)),
    # FLOORDIV, FLOORMOD, divisor contains 0
    ("i // j", lambda: i // j, (INT_MIN, INT_MAX, True)),
    ("i % j", lambda: i % j, (INT_MIN, INT_MAX, True)),
    ("i // [-2,2]", lambda: i // ranged(-2, 2), (INT_MIN, INT_MAX, True)),
    ("i // 0", lambda: i // 0, (INT_MIN, INT_MAX, True)),
    ("unsafe % j", lambda: unsafe % j, FULL_UNSAFE),
    # value CALL
    ("i32 call", lambda: value_call(I32), FULL_UNSAFE),
    ("bool call", lambda: value_call(BOOL), (0, 1, True)),
    ("f32 call", lambda: value_call(F32), UNBOUNDED),
]  # fmt: skip


@pytest.mark.parametrize("label, build, triple", RANGES, ids=[r[0] for r in RANGES])
def test_range_table(label, build, triple):
    node = build()
    assert (node.vmin, node.vmax, node.safe) == triple


def test_ranges_are_cached_on_the_node():
    node = ranged(1, 2, 37) * 3
    first = (node.vmin, node.vmax, node.safe)
    assert (node.vmin, node.vmax, node.safe) == first == (3, 6, True)
    assert (ranged(1, 2, 37) * 3) is node


# ---------------------------------------------------------------------------------------------
# 6.4 Soundness: wrapped values within [vmin, vmax]; safe nodes never wrap
# ---------------------------------------------------------------------------------------------


def exact_value(node, vals):
    """What the node computes on unbounded Python ints (bools stay bools)."""
    op = node.op
    if op is Ops.ADD:
        return vals[0] + vals[1]
    if op is Ops.NEG:
        return -vals[0]
    if op is Ops.MUL:
        return vals[0] * vals[1] if node.dtype is I32 else vals[0] and vals[1]
    if op is Ops.MAX:
        return max(vals) if node.dtype is I32 else vals[0] or vals[1]
    if op is Ops.CMPLT:
        return vals[0] < vals[1]
    if op is Ops.CMPNE:
        return vals[0] != vals[1]
    if op is Ops.WHERE:
        return vals[1] if vals[0] else vals[2]
    if op is Ops.FLOORDIV:
        return 0 if vals[1] == 0 else vals[0] // vals[1]
    if op is Ops.FLOORMOD:
        return vals[0] if vals[1] == 0 else vals[0] % vals[1]
    if op is Ops.CAST:
        return vals[0] != 0 if node.arg is BOOL else int(vals[0])
    raise AssertionError(f"no exact rule for {op}")


def evaluate_both(nodes, env):
    """Wrapped (through eval_op) and exact values of every node, nodes in srcs-first order."""
    wrapped, exact = {}, {}
    for node in nodes:
        if node.op is Ops.CONST:
            wrapped[node] = exact[node] = node.arg
        elif node.op is Ops.PARAM:
            wrapped[node] = exact[node] = env[node.arg.slot]
        else:
            wrapped[node] = eval_op(node.op, node.dtype, [wrapped[s] for s in node.src], node.arg)
            exact[node] = exact_value(node, [exact[s] for s in node.src])
    return wrapped, exact


def infix(node):
    """A one-line rendering for failure messages (the text format is not this file's)."""
    names = {}
    for n in node.toposort():
        if n.op is Ops.CONST:
            names[n] = repr(n.arg)
        elif n.op is Ops.PARAM:
            names[n] = f"p{n.arg.slot}[{n.arg.vmin},{n.arg.vmax}]"
        elif n.op is Ops.CAST:
            names[n] = f"{n.arg}({names[n.src[0]]})"
        else:
            names[n] = f"{n.op.name.lower()}({', '.join(names[s] for s in n.src)})"
    return names[node]


SMALL_CONSTS = [-3, -2, -1, 1, 2, 3, 4, 7]
BIG_CONSTS = [46341, 65536, 2**20, 2**30, INT_MAX, INT_MIN, -(2**30), INT_MIN + 1]


def random_expression(r):
    """A random i32/bool expression over two i32 params with small declared ranges.
    Returns (params, nodes) where nodes are all nodes built, srcs first."""
    params = []
    for slot in (0, 1):
        lo = r.randint(-6, 4)
        params.append(param(slot, I32, lo, lo + r.randint(0, 7)))
    ints, bools = list(params), []

    def an_int():
        if r.random() < 0.25:
            return UOp.const(r.choice(SMALL_CONSTS + BIG_CONSTS + [0]))
        return r.choice(ints)

    def a_bool():
        return r.choice(bools) if bools and r.random() < 0.8 else UOp.const(r.random() < 0.5)

    for _ in range(r.randint(3, 10)):
        kind = r.choice(["add", "neg", "mul", "max", "cmplt", "cmpne", "where",
                         "div", "mod", "cast", "bool"])  # fmt: skip
        if kind == "add":
            ints.append(an_int() + an_int())
        elif kind == "neg":
            ints.append(-an_int())
        elif kind == "mul":
            ints.append(an_int() * r.choice([an_int(), UOp.const(r.choice(BIG_CONSTS))]))
        elif kind == "max":
            ints.append(an_int().max(an_int()))
        elif kind in ("cmplt", "cmpne"):
            a, b = (an_int(), an_int()) if r.random() < 0.7 else (a_bool(), a_bool())
            bools.append(a.lt(b) if kind == "cmplt" else a.ne(b))
        elif kind == "where":
            if r.random() < 0.7:
                ints.append(a_bool().where(an_int(), an_int()))
            else:
                bools.append(a_bool().where(a_bool(), a_bool()))
        elif kind in ("div", "mod"):
            divisor = r.choice([UOp.const(r.choice(SMALL_CONSTS + [-1, INT_MAX])),
                                r.choice(params), r.choice(params), an_int()])  # fmt: skip
            dividend = UOp.const(INT_MIN) if r.random() < 0.2 else an_int()  # INT_MIN // -1
            ints.append(dividend // divisor if kind == "div" else dividend % divisor)
        elif kind == "cast":
            if bools and r.random() < 0.5:
                ints.append(r.choice(bools).cast(I32))
            else:
                bools.append(an_int().cast(BOOL))
        else:  # bool MUL (and), MAX (or), i32 -> i32, bool -> bool
            a, b = a_bool(), a_bool()
            choice = r.randrange(4)
            if choice == 0:
                bools.append(a * b)
            elif choice == 1:
                bools.append(a.max(b))
            elif choice == 2:
                ints.append(an_int().cast(I32))
            else:
                bools.append(a.cast(BOOL))
    roots = ints + bools
    nodes = {}
    for root in roots:
        for node in root.toposort():
            nodes[node] = None
    return params, sorted(nodes, key=lambda n: n.id)


@functools.cache
def soundness_run():
    """Evaluate 300 random expressions on every point inside their declared bounds.

    Returns (bound violations, safe violations, wrapped node values, unsafe nodes); a
    violation is kept per op, the first one found, with its seed, point and expression."""
    outside, wrapped_safe = {}, {}
    wraps = unsafe_nodes = 0
    for seed in range(300):
        params, nodes = random_expression(random.Random(seed))
        triples = {node: (node.vmin, node.vmax, node.safe) for node in nodes}
        unsafe_nodes += sum(not triple[2] for triple in triples.values())
        for point in itertools.product(*(range(p.arg.vmin, p.arg.vmax + 1) for p in params)):
            wrapped, exact = evaluate_both(nodes, dict(enumerate(point)))
            for node in nodes:
                lo, hi, safe = triples[node]
                value, exact_int = int(wrapped[node]), int(exact[node])
                wraps += value != exact_int
                where = f"seed {seed}, point {point}: {infix(node)} has triple {triples[node]}"
                if not lo <= value <= hi:
                    outside.setdefault(node.op, f"{where}, value {value}")
                if safe and value != exact_int:
                    wrapped_safe.setdefault(node.op, f"{where}, wrapped {value}, exact {exact_int}")
    return outside, wrapped_safe, wraps, unsafe_nodes


def test_random_expressions_stay_within_their_ranges():
    outside = soundness_run()[0]
    assert not outside, "\n".join(outside.values())


def test_random_expressions_safe_nodes_do_not_wrap():
    wrapped_safe = soundness_run()[1]
    assert not wrapped_safe, "\n".join(wrapped_safe.values())


def test_random_expressions_reach_unsafe_and_wrapping_nodes():
    """The generator is strong enough to matter: some nodes wrap and some are marked unsafe."""
    _, _, wraps, unsafe_nodes = soundness_run()
    assert wraps > 100 and unsafe_nodes > 50


def wide_square(bound):
    """x*x for x in [-bound, bound], in slot 0."""
    x = param(0, I32, -bound, bound)
    return x * x


# (label, build, the input at which the node's wrapped and exact values differ)
WRAPPING_BELOW = [
    ("x*x itself", lambda: wide_square(50000), 50000),
    ("x*x < 0", lambda: wide_square(50000).lt(0), 50000),
    ("INT_MAX < x*x", lambda: UOp.const(INT_MAX).lt(wide_square(50000)), 50000),
    ("x*x != 0", lambda: wide_square(70000).ne(0), 65536),
    ("bool(x*x)", lambda: wide_square(70000).cast(BOOL), 65536),
    ("i32(x*x < 0)", lambda: wide_square(50000).lt(0).cast(I32), 50000),
    ("INT_MIN // x, x in [-2, 2]", lambda: UOp.const(INT_MIN) // param(0, I32, -2, 2), -1),
    # (x*x)//2**30 lies in [-2, 1] when wrapped but is 2 exactly: a condition "always true"
    ("where((x*x)//2**30 < 2, 1, 0)", lambda: (wide_square(50000) // 2**30).lt(2).where(1, 0),
     50000),
]  # fmt: skip


@pytest.mark.parametrize("label, build, x", WRAPPING_BELOW, ids=[w[0] for w in WRAPPING_BELOW])
def test_a_node_over_a_wrapping_src_is_not_safe(label, build, x):
    """Spec §6.4's requirement: a safe node's wrapped value equals its exact value."""
    node = build()
    wrapped, exact = evaluate_both(node.toposort(), {0: x})
    assert int(wrapped[node]) != int(exact[node])  # the case does wrap below
    assert not node.safe, (node.vmin, node.vmax, node.safe)


# ---------------------------------------------------------------------------------------------
# Deep graphs: every walk is iterative (spec §0)
# ---------------------------------------------------------------------------------------------


CHAIN = size(20_000, 200_000)  # additions: far more than Python's recursion limit either way


def test_chain_of_many_adds():
    limit = sys.getrecursionlimit()
    assert limit < CHAIN // 4  # so that a recursive walk would fail here
    x = param(0, I32, 0, 10)
    node = x
    for k in range(1, CHAIN + 1):  # constants -1, 2, -3, 4, ...: all distinct, sums stay small
        node = node + UOp.const(k if k % 2 == 0 else -k)
    order = node.toposort()
    assert len(order) == 2 * CHAIN + 1
    assert order[0] is x and order[-1] is node and order[2].op is Ops.ADD
    half = CHAIN // 2  # each pair of constants adds 1
    assert (node.vmin, node.vmax, node.safe) == (half, half + 10, True)
    middle = order[CHAIN]  # x, c1, add1, c2, add2, ...: the add half way
    assert (middle.vmin, middle.vmax, middle.safe) == (half // 2, half // 2 + 10, True)
    assert sys.getrecursionlimit() == limit
    del order, node, middle
    gc.collect()


@pytest.mark.parametrize("op", [Ops.ADD, Ops.NEG, Ops.WHERE, Ops.LOAD, Ops.SINK])
def test_an_op_without_an_arg_refuses_one(op):
    x = UOp(Ops.PARAM, (), ParamArg(0, I32))
    with pytest.raises(UOpError, match=f"^{op.name}: takes no arg$"):
        UOp(op, (x, x), 5)


def test_calls_of_one_body_walk_it_once(monkeypatch):
    # issue 31: each CALL walked its whole body, so 16,000 calls of one body took minutes;
    # the body's PARAMs are kept per body node, so 300 calls walk it once
    body = param(0, I32) * param(1, I32) + 1
    walks = []
    toposort = UOp.toposort
    monkeypatch.setattr(UOp, "toposort", lambda u, skip=None: walks.append(u) or toposort(u, skip))
    calls = [UOp(Ops.CALL, (body, UOp.const(n), UOp.const(-n)), CallArg("f")) for n in range(300)]
    assert walks.count(body) <= 1 and len(calls) == 300
    with pytest.raises(UOpError, match="argument 1 has dtype f32, the body wants i32"):
        UOp(Ops.CALL, (body, UOp.const(1), UOp.const(1.0)), CallArg("f"))  # args still checked


def test_a_body_built_again_is_checked_again():
    # the kept PARAMs go with their body: a body dropped and built again with other PARAMs
    # (a new node, perhaps at the old address) is walked again, never answered from the old one
    from uopc import typecheck

    def build(dtype):
        return UOp(
            Ops.CALL, (param(7, dtype) + param(7, dtype),) + (UOp.const(0),) * 8, CallArg("f")
        )

    assert build(I32).dtype is I32
    gc.collect()
    assert not any(p.arg.slot == 7 for ps in typecheck._BODY_PARAMS.values() for p in ps)
    with pytest.raises(UOpError, match="argument 7 has dtype i32, the body wants f32"):
        build(F32)


def test_threads_building_one_chain_share_every_node():
    """Four threads build the same chain at once, with the interpreter switching threads as
    often as it can: one node per structure still (issue 31), so every thread ends with the
    very same root, and the text of it reads back to that root. Without the table's lock,
    every trial gave duplicates."""
    import sys
    import threading

    from uopc.textfmt import dumps, loads

    def chain(results, i):
        node = UOp(Ops.PARAM, arg=ParamArg(0, I32))
        for c in range(1, 2000):
            node = node + c
        results[i] = node

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _trial in range(3):
            results = [None] * 4
            threads = [threading.Thread(target=chain, args=(results, i)) for i in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert all(root is results[0] for root in results)
            assert loads(dumps(results[0])) is results[0]
    finally:
        sys.setswitchinterval(interval)
