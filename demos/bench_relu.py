"""Benchmark block `relu`: relu(x*y+1) run three ways, and the C loop against a plain -O2 loop.

The three ways are the interpreter (`evaluate`), the compiled function called once per element
through ctypes, and a loop inside C appended to the rendered function and compiled by
`compile_c` with the runtime's flags. A fourth loop, written by hand the obvious way and
compiled with `-O2 -fwrapv -ffp-contract=off` alone, is what a C programmer would get: the ratio
of the two loops shows whether the runtime's flags and the rendering of `max` cost the loop
its speed (they did while the flags held -ffp-exception-behavior=maytrap: no vectorising).
"""

import ctypes
import subprocess
import tempfile
from pathlib import Path

from bench_clock import best

from book.protocol import MACHINE_MARK as MACHINE
from uopc import F32, CallArg, Ops, ParamArg, UOp, runtime
from uopc.interp import evaluate
from uopc.render import render
from uopc.semantics import same

SEED = 1234  # the relu inputs
LOOP_RATIO_TARGET = 1.5  # the runtime's C loop may take at most 1.5 times the plain loop

LOOP_C = """
void relu_loop(const float *x, const float *y, float *out, int32_t n) {
  for (int32_t i = 0; i < n; i++) out[i] = relu(x[i], y[i]);
}
"""
PLAIN_C = """
#include <stdint.h>
void relu_loop(const float *x, const float *y, float *out, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    float v = x[i] * y[i] + 1.0f;
    out[i] = (v > 0.0f) ? v : 0.0f;
  }
}
"""
PLAIN_FLAGS = ["-O2", "-fwrapv", "-ffp-contract=off", "-shared", "-fPIC"]


def load_loop(path: str):
    loop = ctypes.CDLL(path).relu_loop
    loop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32]
    loop.restype = None
    return loop


def pointers(*arrays):
    return [array.ctypes.data for array in arrays]


def plain_loop(folder: str):
    """The hand-written loop, compiled with clang directly (not through the runtime's cache)."""
    source, library = Path(folder, "plain.c"), str(Path(folder, "plain.so"))
    source.write_text(PLAIN_C, encoding="utf-8")
    subprocess.run([runtime.CC, *PLAIN_FLAGS, str(source), "-o", library], check=True)
    return load_loop(library)


def seeded_inputs(rng, n: int, step: int = 1 << 20):
    """n f32 values drawn uniformly from [-4, 4): the numbers rng.uniform(-4, 4, n) gives in
    one call, drawn a million at a time, so that no float64 array of n values is ever made
    (at 20 million elements that array cost most of a second)."""
    import numpy as np

    values = np.empty(n, dtype=np.float32)
    for start in range(0, n, step):
        values[start : start + step] = rng.uniform(-4.0, 4.0, min(step, n - start))
    return values


def relu_call():
    x, y = (UOp(Ops.PARAM, arg=ParamArg(slot, F32)) for slot in (0, 1))
    body = (x * y + 1.0).max(0.0)
    zero = UOp.const(0.0)
    return body, UOp(Ops.CALL, (body, zero, zero), CallArg("relu"))


def bench_relu(sizes: dict) -> tuple[dict, dict, dict, list[str]]:
    import numpy as np

    body, call = relu_call()
    fn = runtime.Program(call).fn
    loop = load_loop(runtime.compile_c(render(call) + LOOP_C))
    rng = np.random.default_rng(SEED)
    n_loop, n_interp, n_ctypes = sizes["c_loop"], sizes["interpreter"], sizes["ctypes"]
    xs, ys = (seeded_inputs(rng, n_loop) for _ in range(2))
    out, plain_out = np.zeros(n_loop, dtype=np.float32), np.zeros(n_loop, dtype=np.float32)
    px, py = xs[:n_ctypes].tolist(), ys[:n_ctypes].tolist()
    ix, iy = px[:n_interp], py[:n_interp]

    def interpret():
        return [evaluate(body, {0: a, 1: b}) for a, b in zip(ix, iy, strict=True)]

    def per_call():
        return [fn(a, b) for a, b in zip(px, py, strict=True)]

    with tempfile.TemporaryDirectory() as folder:
        plain = plain_loop(folder)
        ways = {
            "interpreter": (n_interp, interpret),
            "ctypes_per_element": (n_ctypes, per_call),
            "c_loop": (n_loop, lambda: loop(*pointers(xs, ys, out), n_loop)),
            "c_loop_plain": (n_loop, lambda: plain(*pointers(xs, ys, plain_out), n_loop)),
        }
        seconds = {way: best(f"relu, {way}", run, repeats=3) for way, (_, run) in ways.items()}
    wanted = interpret()
    agree = all(map(same, per_call()[:n_interp], wanted)) and all(
        map(same, out[:n_interp].tolist(), wanted)
    )
    if not agree:
        raise SystemExit("FAILED: the compiled relu and the interpreter disagree")
    if not all(map(same, plain_out[:n_interp].tolist(), wanted)):
        raise SystemExit("FAILED: the plain -O2 loop and the interpreter disagree")
    ns = {way: seconds[way][0] / n * 1e9 for way, (n, _) in ways.items()}
    cpu_ns = {way: seconds[way][1] / n * 1e9 for way, (n, _) in ways.items()}
    plain_ns = {"wall": ns.pop("c_loop_plain"), "cpu": cpu_ns.pop("c_loop_plain")}
    loop_ratio = cpu_ns["c_loop"] / plain_ns["cpu"]
    plain = {
        **plain_ns,
        "flags": " ".join(PLAIN_FLAGS[:3]),
        "ratio_cpu": loop_ratio,
        "target": f"<= {LOOP_RATIO_TARGET}",
        "bound": LOOP_RATIO_TARGET,
        "met": loop_ratio <= LOOP_RATIO_TARGET,
    }
    return ns, cpu_ns, plain, relu_lines(sizes, ns, cpu_ns, plain)


def relu_lines(sizes, ns, cpu_ns, plain) -> list[str]:
    n_interp, n_ctypes, n_loop = sizes["interpreter"], sizes["ctypes"], sizes["c_loop"]
    rows = [
        ("interpreter", n_interp, "interpreter", ",.0f"),
        ("one ctypes call each", n_ctypes, "ctypes_per_element", ",.0f"),
        ("a loop inside C", n_loop, "c_loop", ".2f"),
    ]
    scaled = cpu_ns["interpreter"] * n_ctypes / 1e9
    lines = [
        f"relu(x*y+1) three ways, seeded f32 inputs  {MACHINE}",
        f"  {'way':<22}{'elements':>11}{'ns wall':>9}{'ns cpu':>9}",
    ]
    for label, n, way, spec in rows:
        lines.append(f"  {label:<22}{n:>11,}{ns[way]:>9{spec}}{cpu_ns[way]:>9{spec}}")
    lines.append(f"  {'plain -O2 loop':<22}{n_loop:>11,}{plain['wall']:>9.2f}{plain['cpu']:>9.2f}")
    met = "met" if plain["met"] else "MISSED"
    lines += [
        "  ns are per element; best of 3 runs each",
        f"  the interpreter, scaled to {n_ctypes:,} elements: {scaled:.3f} s cpu",
        "  ratios of cpu times:",
        f"    interpreter / C loop: {cpu_ns['interpreter'] / cpu_ns['c_loop']:,.0f}",
        f"    ctypes / C loop: {cpu_ns['ctypes_per_element'] / cpu_ns['c_loop']:,.0f}",
        f"    C loop / plain -O2 loop: {plain['ratio_cpu']:.2f} (target {plain['target']}: {met})",
        f"  plain loop: written by hand, {plain['flags']}",
    ]
    return lines
