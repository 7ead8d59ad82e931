"""Tests of uopc.textfmt: the exact text `dumps` writes, every message of `loads`, round trips
(`loads(dumps(u)) is u`) on seeded random graphs, damaged texts, a deep chain, and `infix`.

The random graphs come from a small generator in this file (seeded; the failing text is shown).
"""

import math
import random

import pytest

from book.protocol import size
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, CallArg, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.ranges import param_bounds
from uopc.semantics import f32
from uopc.textfmt import MAX_QUOTE, ParseError, dumps, infix, loads, shorten

H = "; uop v1\n"


def param(slot, dtype, vmin=None, vmax=None):
    return UOp(Ops.PARAM, (), ParamArg(slot, dtype, vmin, vmax))


def buffer(slot, dtype, size):
    return UOp(Ops.BUFFER, (), ParamArg(slot, Ptr(dtype, size)))


X, Y = param(0, F32), param(1, F32)
I, J = param(0, I32, 0, 15), param(1, I32, 0, 3)
C = param(2, BOOL)


# ---------------------------------------------------------------------------------------------
# What dumps writes
# ---------------------------------------------------------------------------------------------

EXAMPLE = """\
; uop v1
%0 = param : dtype=f32 slot=0
%1 = param : dtype=f32 slot=1
%2 = add %0, %1
%3 = const : dtype=f32 value=0.0
%4 = call %2, %3, %3 : name=add
"""


def test_example_text():
    call = UOp(Ops.CALL, (X + Y, UOp.const(0.0), UOp.const(0.0)), CallArg("add"))
    assert dumps(call) == EXAMPLE
    assert loads(EXAMPLE) is call


LAST_LINES = [
    (lambda: param(2, Ptr(F32, 3)), "%0 = param : dtype=f32 slot=2 size=3"),
    (lambda: buffer(0, F32, 2), "%0 = buffer : dtype=f32 slot=0 size=2"),
    (lambda: UOp(Ops.ALLOC, (), ParamArg(1, Ptr(I32, 4))), "%0 = alloc : dtype=i32 slot=1 size=4"),
    (lambda: I, "%0 = param : dtype=i32 slot=0 min=0 max=15"),
    (lambda: param(3, I32, vmin=-2), "%0 = param : dtype=i32 slot=3 min=-2"),
    (lambda: param(3, I32, vmax=9), "%0 = param : dtype=i32 slot=3 max=9"),
    (lambda: param(1, BOOL), "%0 = param : dtype=bool slot=1"),
    (lambda: (param(0, I32) + param(1, I32)).cast(BOOL), "%3 = cast %2 : dtype=bool"),
    (lambda: UOp.const(0.1), "%0 = const : dtype=f32 value=0.10000000149011612"),
    (lambda: UOp.const(math.nan), "%0 = const : dtype=f32 value=nan"),
    (lambda: UOp.const(math.inf), "%0 = const : dtype=f32 value=inf"),
    (lambda: UOp.const(-math.inf), "%0 = const : dtype=f32 value=-inf"),
    (lambda: UOp.const(-0.0), "%0 = const : dtype=f32 value=-0.0"),
    (lambda: UOp.const(1e40), "%0 = const : dtype=f32 value=inf"),
    (lambda: UOp.const(1e-45), "%0 = const : dtype=f32 value=1.401298464324817e-45"),
    (lambda: UOp.const(True), "%0 = const : dtype=bool value=true"),
    (lambda: UOp.const(False), "%0 = const : dtype=bool value=false"),
    (lambda: UOp.const(INT_MIN), "%0 = const : dtype=i32 value=-2147483648"),
    (lambda: UOp.const(INT_MAX), "%0 = const : dtype=i32 value=2147483647"),
    (lambda: X * Y, "%2 = mul %0, %1"),
    (lambda: X + X, "%1 = add %0, %0"),
    (lambda: C.where(X, Y), "%3 = where %0, %1, %2"),
    (lambda: UOp(Ops.CALL, (X.max(0.0), X), CallArg("relu")), "%3 = call %2, %0 : name=relu"),
]


@pytest.mark.parametrize("make, line", LAST_LINES)
def test_last_line(make, line):
    text = dumps(make())
    assert text.startswith(H) and text.endswith("\n")
    assert text.splitlines()[-1] == line


def test_title_goes_on_the_header_and_reads_back():
    text = dumps(X, title="my graph")
    assert text.splitlines()[0] == "; uop v1 my graph"
    assert loads(text) is X


@pytest.mark.parametrize(
    "text, node",
    [
        (H + "%0 = const : dtype=f32 value=1", lambda: UOp.const(1.0)),  # float() reads `1`
        (H + "%0 = const : dtype=f32 value=0.1", lambda: UOp.const(0.1)),  # rounded to f32
        (H + "%0 = const : value=-0.0 dtype=f32", lambda: UOp.const(-0.0)),  # any key order
        (H + "%0 = const : dtype=f32 value=1e99", lambda: UOp.const(math.inf)),
        (H + "%0 = const : dtype=f32 value=-nan", lambda: UOp.const(math.nan)),
        (H + "\n%0 = const : dtype=i32 value=7\n\n  \n", lambda: UOp.const(7)),  # blank lines
        ("; uop v1 a title\n%0 = const : dtype=bool value=true", lambda: UOp.const(True)),
    ],
)
def test_reads(text, node):
    assert loads(text) is node()


def test_names_count_from_zero_without_gaps():
    # %k is the k-th node (spec 7.1); a gap or a jump would let two texts name one graph
    text = H + "%0 = param : dtype=i32 slot=0\n%1 = add %0, %0\n"
    assert loads(text) is param(0, I32) + param(0, I32)
    for bad, message in [
        ("%7 = param : dtype=i32 slot=0\n", "line 2: expected '%0', got '%7'"),
        ("%0 = param : dtype=i32 slot=0\n%2 = add %0, %0\n", "line 3: expected '%1', got '%2'"),
        ("%00 = param : dtype=i32 slot=0\n", "line 2: expected '%0', got '%00'"),
    ]:
        with pytest.raises(ParseError, match=f"^{bad and message}$"):
            loads(H + bad)


# ---------------------------------------------------------------------------------------------
# What loads refuses, row by row
# ---------------------------------------------------------------------------------------------

P0 = "%0 = param : dtype=i32 slot=0\n"
P1F = "%1 = param : dtype=f32 slot=1\n"
HEADER_MESSAGE = "the first line must be '; uop v1' (a title may follow), got "

# issue 31: p in [0, 15] called with 100; the checker refuses it where the call is built
OUT_OF_RANGE = (
    "%0 = param : dtype=i32 slot=0 min=0 max=15\n%1 = const : dtype=i32 value=16\n"
    "%2 = cmplt %0, %1\n%3 = cast %2 : dtype=i32\n%4 = const : dtype=i32 value=100\n"
    "%5 = call %3, %4 : name=f\n"
)
BAD = [
    # the five bad files of the book's error demo
    (P0 + "%1 = add %0, %0\n", HEADER_MESSAGE + "'%0 = param : dtype=i32 slot=0'"),
    (
        H + "%0 = add %1, %1\n%1 = param : dtype=i32 slot=0\n",
        "line 2: '%1' is not defined above this line",
    ),
    (H + "%0 = sub\n", "line 2: unknown op 'sub'"),
    (H + P0 + "%1 = add %0, %x\n", "line 3: '%x' is not defined above this line"),
    (H + P0 + P1F + "%2 = add %0, %1\n", "line 4: ADD: needs two srcs of the same dtype"),
    # the header row
    ("", HEADER_MESSAGE + "''"),
    ("; uop v2\n" + P0, HEADER_MESSAGE + "'; uop v2'"),
    ("; uop v1x\n" + P0, HEADER_MESSAGE + "'; uop v1x'"),
    ("\n" + H + P0, HEADER_MESSAGE + "''"),
    # refs
    (H + P0 + "%1 = neg %1\n", "line 3: '%1' is not defined above this line"),
    (H + P0 + "%1 = add %0, %9\n", "line 3: '%9' is not defined above this line"),
    (H + P0 + "%1 = add %0, 0\n", "line 3: '0' is not defined above this line"),
    # ops and keys
    (H + "%0 = ADD\n", "line 2: unknown op 'ADD'"),
    (H + "%0 = const : dtype=f32\n", "line 2: missing key 'value'"),
    (H + "%0 = const : value=1\n", "line 2: missing key 'dtype'"),
    (H + "%0 = const\n", "line 2: missing key 'dtype'"),
    (H + "%0 = param : dtype=i32\n", "line 2: missing key 'slot'"),
    (H + "%0 = call : dtype=i32\n", "line 2: unknown key 'dtype'"),
    (
        H + "%0 = const : dtype=i32 value=1.5\n",
        "line 2: bad value: invalid literal for int() with base 10: '1.5'",
    ),
    (
        H + "%0 = param : dtype=i32 slot=0 min=x\n",
        "line 2: bad value: invalid literal for int() with base 10: 'x'",
    ),
    (
        H + "%0 = const : dtype=f32 value=one\n",
        "line 2: bad value: could not convert string to float: 'one'",
    ),
    (
        H + "%0 = const : dtype=f64 value=1.0\n",
        "line 2: bad value: unknown dtype 'f64' (bool, i32 or f32)",
    ),
    (
        H + "%0 = const : dtype=bool value=1\n",
        "line 2: bad value: a bool value is true or false, got '1'",
    ),
    (H + "%0 = const : dtype=i32 value=1 size=3\n", "line 2: unknown key 'size'"),
    (H + P0 + "%1 = neg %0 : name=f\n", "line 3: unknown key 'name'"),
    (H + "%0 = const : dtype=i32 dtype=i32 value=1\n", "line 2: key 'dtype' is given twice"),
    # the shape of a line
    (H + P0 + "%1 = add %0,%0\n", "line 3: cannot parse '%1 = add %0,%0'"),
    (H + "%0 const : dtype=i32 value=1\n", "line 2: cannot parse '%0 const : dtype=i32 value=1'"),
    (H + "0 = const : dtype=i32 value=1\n", "line 2: cannot parse '0 = const : dtype=i32 value=1'"),
    (
        H + "%0 = const : dtype=i32  value=1\n",
        "line 2: cannot parse '%0 = const : dtype=i32  value=1'",
    ),
    (H + "%0 = const : dtype=i32 value\n", "line 2: cannot parse '%0 = const : dtype=i32 value'"),
    (H + P0 + "%1 = neg %0 \n", "line 3: cannot parse '%1 = neg %0 '"),
    (H + P0 + "%1 = neg %0 : \n", "line 3: cannot parse '%1 = neg %0 : '"),
    (H + "%0 =\n", "line 2: cannot parse '%0 ='"),
    # names and empty bodies
    (H + P0 + "%0 = neg %0\n", "line 3: '%0' is defined twice"),
    (H, "no nodes after the header"),
    ("; uop v1", "no nodes after the header"),
    ("; uop v1 a title\n\n \n", "no nodes after the header"),
    # type errors while building, with physical line numbers (blank lines count)
    (H + "\n%0 = bogus\n", "line 3: unknown op 'bogus'"),
    (
        H + "%0 = const : dtype=i32 value=2147483648\n",
        "line 2: CONST: 2147483648 does not fit in int32",
    ),
    (H + "%0 = buffer : dtype=f32 slot=0 size=0\n", "line 2: BUFFER: size must be positive"),
    (H + "%0 = buffer : dtype=f32 slot=0\n", "line 2: BUFFER: needs a pointer dtype"),
    (H + P0 + "%1 = call %0 : name=f\n", "line 3: CALL: PARAM slot 0 has no argument"),
    (H + OUT_OF_RANGE, "line 7: CALL: argument 0 is 100, beyond [0, 15] declared by PARAM slot 0"),
    (H + P0 + "%1 = cast %0 : dtype=i32\n%2 = sink %1\n", "line 4: SINK: needs one or more STOREs"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_refused(text, message):
    with pytest.raises(ParseError) as info:
        loads(text)
    assert str(info.value) == message


def test_parse_error_is_a_value_error():
    assert issubclass(ParseError, ValueError)


def live_params(slots):
    return [n for n in UOp.live_nodes() if n.op is Ops.PARAM and n.arg.slot in slots]


@pytest.mark.parametrize(
    "bad_line",
    [
        "%2 = add %0, %1",  # a type error after two new nodes were built
        "%2 = bogus %0, %1",  # a line refused before anything is built
    ],
)
def test_a_refused_text_leaves_nothing_it_built(bad_line):
    text = H + "%0 = param : dtype=i32 slot=424242\n%1 = param : dtype=f32 slot=424243\n"
    with pytest.raises(ParseError) as info:
        loads(text + bad_line + "\n")
    # the error, with its traceback and frames, is still alive here
    assert str(info.value).startswith("line 4: ")
    assert live_params({424242, 424243}) == []


# ---------------------------------------------------------------------------------------------
# Round trips on seeded random graphs
# ---------------------------------------------------------------------------------------------

SPECIAL = {
    I32: [0, 1, -1, 2, 3, 7, INT_MIN, INT_MAX, INT_MIN + 1, INT_MAX - 1, 2**30, -(2**30)],
    F32: [0.0, -0.0, 1.0, -1.0, 0.1, 1.5, 3.0, math.inf, -math.inf, math.nan, 1e-45, 3.4e38],
    BOOL: [True, False],
}
NUMBERS = (I32, F32)


def unary(rng, pool):
    op, dtypes = rng.choice(
        [(Ops.NEG, NUMBERS), (Ops.RECIP, (F32,)), (Ops.EXP2, (F32,)), (Ops.LOG2, (F32,))]
    )
    return UOp(op, (rng.choice(pool[rng.choice(dtypes)]),))


def binary(rng, pool):
    op, dtypes = rng.choice(
        [
            (Ops.ADD, NUMBERS),
            (Ops.MUL, (I32, F32, BOOL)),
            (Ops.MAX, (I32, F32, BOOL)),
            (Ops.CMPLT, (I32, F32, BOOL)),
            (Ops.CMPNE, (I32, F32, BOOL)),
            (Ops.FLOORDIV, (I32,)),
            (Ops.FLOORMOD, (I32,)),
        ]
    )
    choices = pool[rng.choice(dtypes)]
    return UOp(op, (rng.choice(choices), rng.choice(choices)))


def where(rng, pool):
    branches = pool[rng.choice((I32, F32, BOOL))]
    return rng.choice(pool[BOOL]).where(rng.choice(branches), rng.choice(branches))


def cast(rng, pool):
    return rng.choice(pool[rng.choice((I32, F32, BOOL))]).cast(rng.choice((I32, F32, BOOL)))


def random_value(rng, size):
    """A value graph over params of slots 0-2 (bounded or not) and special constants."""
    pool = {dtype: [UOp.const(rng.choice(values))] for dtype, values in SPECIAL.items()}
    bounds = rng.choice([(None, None), (0, 15), (-3, None), (None, 100)])
    params = [param(0, I32, *bounds), param(1, F32), param(2, BOOL)]
    for p in params:
        pool[p.dtype].append(p)
    node = params[0]
    for _ in range(size):
        node = rng.choice([unary, binary, binary, where, cast])(rng, pool)
        pool[node.dtype].append(node)
    return node, params


def random_call(rng, size):
    """A value graph called with constants or outer params (slots 3-5) as its arguments, each
    inside the range its PARAM declares (the checker refuses any other)."""
    body, params = random_value(rng, size)
    args = [random_argument(rng, p, 3 + k) for k, p in enumerate(params)]
    return UOp(Ops.CALL, (body, *args), CallArg(rng.choice(["f", "kernel", "relu_2"])))


def random_argument(rng, p, outer_slot):
    """A special constant that p accepts, or an outer param declared as p is."""
    if rng.random() >= 0.5:
        return param(outer_slot, p.dtype, p.arg.vmin, p.arg.vmax)
    low, high = param_bounds(p.arg) if p.dtype is I32 else (-math.inf, math.inf)
    return UOp.const(rng.choice([v for v in SPECIAL[p.dtype] if v != v or low <= v <= high]))


def random_memory(rng, size):
    """A Builder program over two buffers, a scratch array and a bounded index parameter."""
    builder, dtypes = Builder(), [rng.choice(NUMBERS) for _ in range(2)]
    mems = [builder.buffer(slot, dtype, 4) for slot, dtype in enumerate(dtypes)]
    mems.append(builder.alloc(0, dtypes[0], 4))
    index, values = param(2, I32, 0, 3), {I32: [UOp.const(1)], F32: [UOp.const(0.5)]}
    for step in range(size):
        mem = rng.choice(mems)
        element, place = mem.base.dtype.base, rng.choice([0, 1, 2, 3, index])
        if rng.random() < 0.5 and step < size - 1:
            values[element].append(mem.load(place))
        else:
            value = rng.choice(values[element]) + rng.choice(values[element])
            mem.store(place, value)
    args = [buffer(slot, dtype, 4) for slot, dtype in enumerate(dtypes)]
    return make_call(builder.body(), [*args, UOp.const(rng.randrange(4))], "mem")


GENERATORS = [random_value, random_call, random_memory]


def random_graph(seed):
    rng = random.Random(seed)
    generator = GENERATORS[seed % len(GENERATORS)]
    made = generator(rng, rng.randint(1, 25))
    return made[0] if isinstance(made, tuple) else made


@pytest.mark.parametrize("seed", range(120))
def test_round_trip_random(seed):
    u = random_graph(seed)
    text = dumps(u)
    assert loads(text) is u, f"seed {seed}:\n{text}"
    assert dumps(loads(text)) == text


ROUND_TRIPS = [
    lambda: UOp.const(math.nan) + UOp.const(-0.0) * UOp.const(math.inf),
    lambda: UOp.const(INT_MIN) // param(0, I32, INT_MIN, INT_MAX),
    lambda: UOp.const(True).where(UOp.const(False), C),
    lambda: UOp(Ops.CALL, (X + Y, UOp.const(0.0), UOp.const(0.0)), CallArg("add")),
    lambda: UOp(Ops.CALL, (I * 4 + J, UOp.const(3), param(7, I32, 0, 3)), CallArg("idx")),
]


@pytest.mark.parametrize("make", ROUND_TRIPS)
def test_round_trip_examples(make):
    u = make()
    assert loads(dumps(u)) is u


def test_round_trip_hand_built_memory():
    p = param(0, Ptr(F32, 2))
    scratch = UOp(Ops.ALLOC, (), ParamArg(1, Ptr(F32, 2)))
    first = UOp(Ops.STORE, (UOp(Ops.INDEX, (scratch, UOp.const(0))), UOp.const(1.5)))
    later = UOp(Ops.AFTER, (scratch, first))
    loaded = UOp(Ops.LOAD, (UOp(Ops.INDEX, (later, UOp.const(0))),))
    last = UOp(Ops.STORE, (UOp(Ops.INDEX, (p, UOp.const(1))), loaded))
    call = make_call(UOp.sink(last, first), [buffer(0, F32, 2)], "copy")
    text = dumps(call)
    assert loads(text) is call
    assert "%3 = alloc : dtype=f32 slot=1 size=2" in text.splitlines()


def test_call_name_with_a_space_is_refused_by_dumps():
    with pytest.raises(ValueError):
        dumps(UOp(Ops.CALL, (X, UOp.const(1.0)), CallArg("two words")))


# ---------------------------------------------------------------------------------------------
# Damaged texts: a node or a ParseError, never anything else
# ---------------------------------------------------------------------------------------------

NOISE = b"%=,: 0123456789-.\nabcdefinlstxz"


def damage(rng, data: bytes) -> bytes:
    lines, position = data.split(b"\n"), rng.randrange(len(data) + 1)
    kind = rng.randrange(7)
    if kind == 0:  # one byte replaced by any byte
        return data[:position] + bytes([rng.randrange(256)]) + data[position + 1 :]
    if kind == 1:  # one byte deleted
        return data[:position] + data[position + 1 :]
    if kind == 2:  # a byte from the text's own alphabet inserted
        return data[:position] + bytes([rng.choice(NOISE)]) + data[position:]
    if kind == 3:  # a line deleted
        del lines[rng.randrange(len(lines))]
    elif kind == 4:  # two lines swapped
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
    elif kind == 5:  # a line repeated
        lines.insert(rng.randrange(len(lines)), rng.choice(lines))
    else:  # a digit changed
        digits = [k for k, byte in enumerate(data) if chr(byte).isdigit()] or [position]
        k = rng.choice(digits)
        return data[:k] + str(rng.randrange(10)).encode() + data[k + 1 :]
    return b"\n".join(lines)


@pytest.mark.parametrize("seed", range(8))
def test_damaged_texts(seed):
    rng, outcomes = random.Random(1000 + seed), {"node": 0, "refused": 0}
    for case in range(250):
        u = random_graph(rng.randrange(10**6))
        data = dumps(u).encode()
        for _ in range(rng.randint(1, 3)):
            data = damage(rng, data)
        text = data.decode("utf-8", errors="replace")
        try:
            result = loads(text)
        except ParseError:
            outcomes["refused"] += 1
        else:
            assert isinstance(result, UOp), f"seed {seed} case {case}:\n{text}"
            outcomes["node"] += 1
    # strict numbering and spellings refuse most damage; some damaged texts still load
    assert outcomes["node"] > 5 and outcomes["refused"] > 100, outcomes


# ---------------------------------------------------------------------------------------------
# A deep chain: 200,000 additions (20,000 at quick sizes)
# ---------------------------------------------------------------------------------------------

CHAIN_LENGTH = size(20_000, 200_000)


@pytest.fixture(scope="module")
def chain():
    node = param(0, I32)
    for _ in range(CHAIN_LENGTH):
        node = node + 1
    return node


def test_chain_round_trip(chain):
    text = dumps(chain)
    assert len(text.splitlines()) == 1 + 2 + CHAIN_LENGTH  # header, x, the constant, the adds
    assert loads(text) is chain


def test_chain_infix(chain):
    text = infix(chain, {0: "x"})
    assert text == "(" * CHAIN_LENGTH + "x" + " + 1)" * CHAIN_LENGTH


# ---------------------------------------------------------------------------------------------
# The infix printer
# ---------------------------------------------------------------------------------------------

XY = {0: "x", 1: "y"}
IJC = {0: "i", 1: "j", 2: "c"}

INFIX = [
    (lambda: (X * Y + 1.0).max(0.0), XY, "max(((x * y) + 1.0), 0.0)"),
    (lambda: X - Y, XY, "(x + neg(y))"),
    (lambda: (I * 4 + J) // 4, IJC, "(((i * 4) + j) // 4)"),
    (lambda: I % 3, IJC, "(i % 3)"),
    (lambda: I.lt(J), IJC, "(i < j)"),
    (lambda: I.ne(J), IJC, "(i != j)"),
    (lambda: C.where(I, 5), IJC, "where(c, i, 5)"),
    (lambda: UOp(Ops.RECIP, (X,)), XY, "recip(x)"),
    (lambda: UOp(Ops.EXP2, (X,)) + UOp(Ops.LOG2, (Y,)), XY, "(exp2(x) + log2(y))"),
    (lambda: I.cast(F32), IJC, "cast(i, f32)"),
    (lambda: X.cast(BOOL), XY, "cast(x, bool)"),
    (lambda: UOp.const(True), {}, "True"),
    (lambda: UOp.const(-5), {}, "-5"),
    (lambda: UOp.const(-0.0) * UOp.const(math.nan), {}, "(-0.0 * nan)"),
    (lambda: UOp.const(0.1), {}, "0.10000000149011612"),
    (lambda: (X + X) * (X + X), XY, "((x + x) * (x + x))"),  # a shared node at each use
    (lambda: param(3, F32) + X, XY, "(p3 + x)"),  # a slot with no name
    (lambda: UOp(Ops.CALL, (X + Y, UOp.const(0.0), X), CallArg("add")), XY, "add(0.0, x)"),
]


@pytest.mark.parametrize("make, names, expected", INFIX)
def test_infix(make, names, expected):
    assert infix(make(), names) == expected


def test_infix_memory_ops_print_as_functions():
    p = param(0, Ptr(F32, 2))
    load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (p, UOp.const(1))),))
    assert infix(load, {0: "a"}) == "load(index(a, 1))"


# ---------------------------------------------------------------------------------------------
# Exactly the documented spellings (issue 11): no more than the format writes
# ---------------------------------------------------------------------------------------------

CONST = H + "%0 = const : dtype={} value={}\n"


@pytest.mark.parametrize(
    "dtype, value",
    [
        ("i32", "1_000"),
        ("i32", "+5"),
        ("i32", "\u0665"),  # an Arabic-Indic five, which int() takes
        ("i32", "0x10"),
        ("i32", "9" * 5000),
        ("f32", "Infinity"),
        ("f32", "+1.0"),
        ("f32", "1_0.0"),
        ("f32", "\u0661.5"),
        ("f32", "1e5_0"),
        ("f32", ".5"),
        ("f32", "1."),
        ("f32", "INF"),
        ("f32", "NaN"),
        ("f32", "1E5"),
    ],
)
def test_spellings_python_takes_but_the_format_does_not(dtype, value):
    with pytest.raises(ParseError, match="^line 2: bad value: "):
        loads(CONST.format(dtype, value))


@pytest.mark.parametrize(
    "dtype, value, expected",
    [
        ("i32", "-5", -5),
        ("i32", "0", 0),
        ("f32", "1", 1.0),
        ("f32", "-0.0", -0.0),
        ("f32", "0.10000000149011612", 0.10000000149011612),
        ("f32", "1e+16", 1e16),
        ("f32", "1.5e-05", 1.5e-05),
        ("f32", "-inf", float("-inf")),
        ("f32", "inf", float("inf")),
    ],
)
def test_documented_spellings_read(dtype, value, expected):
    assert loads(CONST.format(dtype, value)).arg == (f32(expected) if dtype == "f32" else expected)


@pytest.mark.parametrize(
    "fields, message",
    [
        ("min=5000000000", "min=5000000000 is outside int32"),
        ("max=-2147483649", "max=-2147483649 is outside int32"),
        ("min=5 max=3", "min=5 is above max=3"),
    ],
)
def test_param_bounds_are_checked_where_read(fields, message):
    text = H + f"%0 = param : dtype=i32 slot=0 {fields}\n"
    with pytest.raises(ParseError, match=f"^line 2: bad value: {message}$"):
        loads(text)


def test_a_size_beyond_the_limit_is_refused():
    text = H + "%0 = buffer : dtype=f32 slot=0 size=99999999999999999999\n"
    with pytest.raises(ParseError, match="^line 2: bad value: size=.* above the limit"):
        loads(text)


def test_crlf_is_refused_with_a_clear_line():
    text = dumps(param(0, I32) + param(0, I32)).replace("\n", "\r\n")
    with pytest.raises(ParseError, match=r"^line 1 ends in \\r\\n"):
        loads(text)


@pytest.mark.parametrize("bad", ["\x1b[31m", "\r", "\x07", "\x00"])
def test_control_characters_are_escaped_in_messages(bad):
    with pytest.raises(ParseError) as refused:
        loads(H + f"%0 = const : dtype=i32 value={bad}\n")
    assert str(refused.value).isprintable()
    with pytest.raises(ParseError) as refused:
        loads(f"; uop v2{bad}\n")
    assert str(refused.value).isprintable()


# Issue 21: a message quotes at most MAX_QUOTE characters of the user's text, then its length.
LONG = "9" * 1_000_000
LONG_TEXTS = [
    (H + "%0 = " + "x" * 1_000_000 + "\n", "line 2: unknown op 'xxx", 1_000_000),
    (H + "x" * 1_000_000 + "\n", "line 2: cannot parse 'xxx", 1_000_000),
    (H + "%0 = const : dtype=i32 value=" + LONG + "\n", "int() with base 10: '999", 1_000_000),
    (H + "%0 = const : dtype=f32 value=1" + LONG + "\n", "to float: '1999", 1_000_001),
    (H + "%0 = const : dtype=" + LONG + " value=1\n", "unknown dtype '999", 1_000_000),
    (H + "%0 = const : dtype=bool value=t" + LONG + "\n", "true or false, got 't999", 1_000_001),
    (H + "%0 = const : " + "k" * 1_000_000 + "=1\n", "unknown key 'kkk", 1_000_000),
    (H + "%" + LONG + " = add\n", "expected '%0', got '%999", 1_000_001),
    (H + "%0 = neg %" + LONG + "\n", "line 2: '%999", 1_000_001),
    ("; uop" + "v" * 1_000_000 + "\n", "got '; uopvvv", 1_000_005),
]


@pytest.mark.parametrize("text, start, length", LONG_TEXTS, ids=lambda v: str(v)[-20:])
def test_a_message_quotes_a_bounded_prefix_with_its_length(text, start, length):
    with pytest.raises(ParseError) as refused:
        loads(text)
    message = str(refused.value)
    assert start in message and f"... ({length:,} characters)'" in message, message
    assert len(message) < 200


@pytest.mark.parametrize(
    "text, expected",
    [
        ("abc", "abc"),
        ("a" * MAX_QUOTE, "a" * MAX_QUOTE),
        ("a" * (MAX_QUOTE + 1), "a" * MAX_QUOTE + f"... ({MAX_QUOTE + 1:,} characters)"),
        ("\x1b" * (MAX_QUOTE + 5), "\\x1b" * MAX_QUOTE + f"... ({MAX_QUOTE + 5} characters)"),
    ],
    ids=["short", "at-limit", "over", "escaped"],
)
def test_shorten(text, expected):
    assert shorten(text) == expected
