"""Unit cases for `uopc.dtypes`: the four scalar types, `Ptr`, the limits and `dtype_of_value`."""

import dataclasses
import math

import pytest

from uopc.dtypes import (
    BOOL,
    F32,
    I32,
    INT_MAX,
    INT_MIN,
    VALUE_DTYPES,
    VOID,
    DType,
    Ptr,
    dtype_of_value,
)

# (dtype, name, kind, C spelling), spec §2.1
DTYPE_TABLE = [
    (BOOL, "bool", "bool", "bool"),
    (I32, "i32", "int", "int32_t"),
    (F32, "f32", "float", "float"),
    (VOID, "void", "void", "void"),
]


@pytest.mark.parametrize("dtype, name, kind, c", DTYPE_TABLE, ids=[r[1] for r in DTYPE_TABLE])
def test_dtype_fields(dtype, name, kind, c):
    assert (dtype.name, dtype.kind, dtype.c) == (name, kind, c)


@pytest.mark.parametrize("dtype, name, kind, c", DTYPE_TABLE, ids=[r[1] for r in DTYPE_TABLE])
def test_str_and_repr_are_the_name(dtype, name, kind, c):
    assert (str(dtype), repr(dtype), f"{dtype}") == (name, name, name)


def test_the_four_are_distinct_dtype_objects():
    assert all(isinstance(d, DType) for d in (BOOL, I32, F32, VOID))
    assert len({id(d) for d in (BOOL, I32, F32, VOID)}) == 4


def test_value_dtypes():
    assert VALUE_DTYPES == (BOOL, I32, F32)
    assert all(a is b for a, b in zip(VALUE_DTYPES, (BOOL, I32, F32), strict=True))


@pytest.mark.parametrize("name, value, want", [
    ("INT_MIN", INT_MIN, -2147483648),
    ("INT_MAX", INT_MAX, 2147483647),
])  # fmt: skip
def test_limits(name, value, want):
    assert value == want and type(value) is int


# ---------------------------------------------------------------------------------------------
# Ptr, spec §2.2
# ---------------------------------------------------------------------------------------------

PTR_EQUALITY = [
    (Ptr(F32, 4), Ptr(F32, 4), True),
    (Ptr(F32, 8), Ptr(F32, 4), False),
    (Ptr(F32, 4), Ptr(I32, 4), False),
    (Ptr(BOOL, 1), Ptr(BOOL, 1), True),
    (Ptr(I32, 3), Ptr(F32, 3), False),
]


@pytest.mark.parametrize("a, b, equal", PTR_EQUALITY, ids=lambda v: str(v))
def test_ptr_equality(a, b, equal):
    assert (a == b, a != b) == (equal, not equal)


@pytest.mark.parametrize("a, b, equal", [c for c in PTR_EQUALITY if c[2]], ids=lambda v: str(v))
def test_equal_ptrs_hash_alike(a, b, equal):
    assert a is not b and hash(a) == hash(b) and len({a, b}) == 1


@pytest.mark.parametrize("ptr, text", [
    (Ptr(F32, 4), "ptr<f32,4>"),
    (Ptr(I32, 8), "ptr<i32,8>"),
    (Ptr(BOOL, 1), "ptr<bool,1>"),
    (Ptr(F32, 1024), "ptr<f32,1024>"),
])  # fmt: skip
def test_ptr_str(ptr, text):
    assert str(ptr) == text and f"{ptr}" == text


@pytest.mark.parametrize("ptr", [Ptr(F32, 4), Ptr(I32, 1)], ids=str)
def test_ptr_is_not_a_dtype(ptr):
    assert not isinstance(ptr, DType)


@pytest.mark.parametrize("ptr", [Ptr(F32, 4), Ptr(I32, 1)], ids=str)
def test_ptr_is_not_equal_to_its_base(ptr):
    assert ptr != ptr.base and ptr.base != ptr


@pytest.mark.parametrize("field, value", [("base", I32), ("size", 5)])
def test_ptr_is_immutable(field, value):
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(Ptr(F32, 4), field, value)


# ---------------------------------------------------------------------------------------------
# dtype_of_value, spec §2.1: bool is tested before int
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value, want", [
    (True, BOOL),
    (False, BOOL),
    (0, I32),
    (1, I32),
    (-7, I32),
    (INT_MAX, I32),
    (0.0, F32),
    (-0.0, F32),
    (1.5, F32),
    (math.inf, F32),
    (math.nan, F32),
])  # fmt: skip
def test_dtype_of_value(value, want):
    assert dtype_of_value(value) is want


@pytest.mark.parametrize("value", ["1", None, 1j, b"1", [1], (1,), I32], ids=repr)
def test_dtype_of_value_refuses_other_types(value):
    with pytest.raises((TypeError, ValueError)):
        dtype_of_value(value)
