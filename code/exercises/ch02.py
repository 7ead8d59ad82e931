"""Chapter 2 · The numbers a machine really has: the answers to exercises 2.1-2.5.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch02.
"""

import math
import random
import struct

import numpy as np

from uopc import F32, I32, INT_MAX, INT_MIN, UOp
from uopc.interp import evaluate
from uopc.runtime import Program
from uopc.semantics import f32, f32_bits, floordiv, floormod, same, wrap32
from verify.generators import param

from answers import check, exercise, out
from shared import bits_to_f32, call_of


@exercise("ch02", "2.1", "wrap32 of 2**31 + 7 and of -2**31 - 7")
def ex_2_1():
    for value in (2**31 + 7, -(2**31) - 7):
        wrapped = wrap32(value)
        by_numpy = int(np.array([value], dtype=np.int64).astype(np.int32)[0])
        by_struct = struct.unpack("<i", struct.pack("<q", value)[:4])[0]  # the low 4 bytes
        check(wrapped == by_numpy == by_struct, f"{value}: {wrapped}, {by_numpy}, {by_struct}")
        check(INT_MIN <= wrapped <= INT_MAX, f"{wrapped} is outside int32")
        check((value - wrapped) % 2**32 == 0, f"{wrapped} is not congruent to {value}")
        out(f"wrap32({value}) = {wrapped} (NumPy int32 and struct agree)")


@exercise("ch02", "2.2", "the bit fields of -1.0 in float32")
def ex_2_2():
    (word,) = struct.unpack(">I", struct.pack(">f", -1.0))
    s, e, f = word >> 31, (word >> 23) & 0xFF, word & 0x7FFFFF
    rebuilt = (-1) ** s * (1 + f / 2**23) * 2.0 ** (e - 127)
    check(rebuilt == -1.0, f"the fields rebuild {rebuilt}")
    check((s, e, f) == (1, 127, 0), f"fields {(s, e, f)}")
    check(word == f32_bits(-1.0) == int(np.float32(-1.0).view(np.uint32)), "three bit patterns")
    out(f"sign {s}, exponent {e} (2**{e - 127}), fraction {f}; the word is {word:#010x}")


@exercise("ch02", "2.3", "the first n with float32(n + 1) == float32(n)")
def ex_2_3():
    n, chunk, start = None, 1 << 20, 1
    while n is None:  # a vectorised scan over n = 1, 2, 3, ...
        block = np.arange(start, start + chunk, dtype=np.int64)
        lost = block.astype(np.float32) == (block + 1).astype(np.float32)
        n = int(block[np.argmax(lost)]) if lost.any() else None
        start += chunk
    check(n == 2 ** (23 + 1), f"first n {n}, not 2**24 (23 fraction bits plus the hidden one)")
    check(f32(n + 1.0) == f32(float(n)), "the contract rounds n + 1 to n")
    check(np.float32(n) + np.float32(1.0) == np.float32(n), "NumPy's float32 keeps n + 1 as n")
    check(f32(n - 1 + 1.0) != f32(float(n - 1)), "the contract keeps n - 1 + 1")
    gap = bits_to_f32(f32_bits(float(n)) + 1) - n
    check(gap == float(np.spacing(np.float32(n))) == 2.0, f"gap {gap}")
    out(f"n = {n:,} = 2**24; every smaller n is exact (scan); the gap there is {gap}")


@exercise("ch02", "2.4", "floor and truncating division of -7 by 2")
def ex_2_4():
    a, b = -7, 2
    floor_pair = (floordiv(a, b), floormod(a, b))
    trunc_pair = (math.trunc(a / b), int(math.fmod(a, b)))
    check(floor_pair == (a // b, a % b) == (-4, 1), f"floor {floor_pair}")
    check(trunc_pair == (int(np.trunc(a / b)), int(np.fmod(a, b))) == (-3, -1), f"{trunc_pair}")
    for q, r in (floor_pair, trunc_pair):
        check(a == b * q + r, f"a != b*q + r for {(q, r)}")
    check(floor_pair != trunc_pair, "the two conventions agree here")
    n, d = param(0, I32), param(1, I32)
    zero = UOp.const(0)
    compiled = tuple(
        Program(call_of(e, [zero, zero], name))(a, b)
        for e, name in ((n // d, "floor_q"), (n % d, "floor_r"))
    )
    check(compiled == floor_pair, f"the compiled floor ops give {compiled}")
    out(
        f"floor: q = {floor_pair[0]}, r = {floor_pair[1]}; truncating: q = {trunc_pair[0]}, "
        f"r = {trunc_pair[1]}; both give a == b*q + r"
    )


@exercise("ch02", "2.5", "two groupings of three float32 sums")
def ex_2_5():
    a, b, c = param(0, F32), param(1, F32), param(2, F32)
    left, right = (a + b) + c, a + (b + c)
    r = random.Random(25)
    found, tries = None, 0
    while found is None:  # a seeded search in [0, 1)
        tries += 1
        triple = tuple(f32(r.random()) for _ in range(3))
        env = dict(enumerate(triple))
        if not same(evaluate(left, env), evaluate(right, env)):
            found = triple
    triples = [(1e8, -1e8, 1.0), (16777216.0, 1.0, 1.0), (3.0, 1e-7, 1e-7), found]
    for triple in triples:
        env = dict(enumerate(triple))
        grouped = (evaluate(left, env), evaluate(right, env))
        x, y, z = (np.float32(v) for v in triple)
        by_numpy = (float((x + y) + z), float(x + (y + z)))
        check(not same(*grouped), f"{triple}: both groupings give {grouped[0]}")
        check(all(map(same, grouped, by_numpy)), f"{triple}: NumPy gives {by_numpy}")
        out(f"{triple}: (a+b)+c = {grouped[0]}, a+(b+c) = {grouped[1]}")
    out(f"the last triple is seeded draw {tries} (random.Random(25)), the first that differs")
