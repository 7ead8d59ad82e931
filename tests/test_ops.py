"""Unit cases for `uopc.ops`: the 23 ops in the book's order and the ALU group of 13 (spec §3)."""

import enum

import pytest

from uopc.ops import ALU, Ops

# The 23 ops, in the order of the spec's table, with the lower-case name the text format uses.
BOOK_ORDER = [
    "const", "param", "call",
    "cast", "neg", "recip", "exp2", "log2",
    "add", "mul", "max", "cmplt", "cmpne", "floordiv", "floormod",
    "where",
    "buffer", "alloc", "index", "load", "store", "after", "sink",
]  # fmt: skip

ALU_NAMES = [
    "cast", "neg", "recip", "exp2", "log2", "add", "mul", "max",
    "cmplt", "cmpne", "floordiv", "floormod", "where",
]  # fmt: skip


def test_ops_is_an_enum():
    assert issubclass(Ops, enum.Enum)


def test_there_are_23_ops():
    assert len(Ops) == 23


def test_ops_are_in_book_order():
    assert [op.name.lower() for op in Ops] == BOOK_ORDER


@pytest.mark.parametrize("op", list(Ops), ids=lambda op: op.name)
def test_name_is_upper_case(op):
    assert op.name == op.name.upper()


@pytest.mark.parametrize("op", list(Ops), ids=lambda op: op.name)
def test_str_is_enum_style(op):
    # eval_op's message `no semantics for Ops.LOAD` relies on this spelling
    assert str(op) == f"Ops.{op.name}"


def test_alu_has_exactly_the_13_listed():
    assert sorted(op.name.lower() for op in ALU) == sorted(ALU_NAMES)
    assert len(ALU) == 13


@pytest.mark.parametrize("name", BOOK_ORDER)
def test_alu_membership(name):
    assert (Ops[name.upper()] in ALU) == (name in ALU_NAMES)


@pytest.mark.parametrize("installed", [True, False], ids=["overlay", "plain"])
def test_the_lean_metaclass_keeps_every_use_of_an_enum(installed):
    """The overlay gives Ops a metaclass without EnumType's __getattr__ fallback (on Python
    3.11; uopc/speed/node.py): every way the project reads Ops must give what an Enum gives,
    with the overlay and without it."""
    import copy
    import pickle

    from uopc import speed

    class Plain(enum.Enum):  # the same members under the untouched EnumType
        A = 1
        B = 2

    try:
        speed.install() if installed else speed.uninstall()
        lean = installed and "__getattr__" in vars(enum.EnumType)
        assert (type(Ops) is not enum.EnumType) is lean and type(Plain) is enum.EnumType
        if lean:
            assert "__getattr__" not in vars(type(Ops))
        assert [op.value for op in Ops] == list(range(1, 24)) and len(Ops) == 23
        assert Ops["ADD"] is Ops.ADD and Ops(9) is Ops.ADD and Ops.__members__["MUL"] is Ops.MUL
        assert Ops.ADD in Ops and list(reversed(Ops))[0] is Ops.SINK and bool(Ops)
        assert repr(Ops) == "<enum 'Ops'>" and repr(Ops.ADD) == "<Ops.ADD: 9>"
        assert isinstance(Ops.ADD, Ops) and isinstance(Ops.ADD, enum.Enum)
        assert pickle.loads(pickle.dumps(Ops.ADD)) is Ops.ADD and copy.deepcopy(Ops.MUL) is Ops.MUL
        assert {Ops.ADD: 1}[Ops["ADD"]] == 1
        with pytest.raises(KeyError):
            Ops["SUB"]
        with pytest.raises(ValueError):
            Ops(99)
        with pytest.raises(AttributeError):
            Ops.SUB  # noqa: B018 (the read is the test)
    finally:
        speed.install()
