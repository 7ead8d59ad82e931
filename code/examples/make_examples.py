"""Writes the example programs for `python -m uopc` in the text format, next to this file.

    python code/examples/make_examples.py [--out DIR]

relu.uop   the call relu(x, y) = max(x*y + 1, 0) on two f32 params
add3.uop   a memory call: out[i] = a[i] + b[i] over three buffers of 3 f32
index.uop  the index expression (i*4 + j) // 4 with i in [0, 15] and j in [0, 3]

The files are generated, never typed, so they always load: `tests/test_cli.py` checks that
running this script again gives the same bytes.
"""

import argparse
from pathlib import Path

from uopc import F32, I32, CallArg, Ops, ParamArg, Ptr, UOp  # noqa: E402
from uopc.builder import Builder, make_call  # noqa: E402
from uopc.textfmt import dumps  # noqa: E402

HERE = Path(__file__).resolve().parent


def relu() -> UOp:
    x, y = (UOp(Ops.PARAM, arg=ParamArg(slot, F32)) for slot in (0, 1))
    # the arguments are the caller's own x and y, so the call reads relu(x, y)
    return UOp(Ops.CALL, ((x * y + 1.0).max(0.0), x, y), CallArg("relu"))


def add3() -> UOp:
    kernel = Builder()
    a, b, out = (kernel.buffer(slot, F32, 3) for slot in range(3))
    for i in range(3):
        out.store(i, a.load(i) + b.load(i))
    buffers = [UOp(Ops.BUFFER, arg=ParamArg(slot, Ptr(F32, 3))) for slot in range(3)]
    return make_call(kernel.body(), buffers, "add3")


def index() -> UOp:
    i = UOp(Ops.PARAM, arg=ParamArg(0, I32, 0, 15))
    j = UOp(Ops.PARAM, arg=ParamArg(1, I32, 0, 3))
    return (i * 4 + j) // 4


EXAMPLES = {
    "relu.uop": (relu, "relu(x, y) = max(x*y + 1, 0)"),
    "add3.uop": (add3, "add3: out[i] = a[i] + b[i] for i in 0..2"),
    "index.uop": (index, "(i*4 + j) // 4, i in [0, 15], j in [0, 3]"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write into")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    for name, (build, title) in EXAMPLES.items():
        (out / name).write_text(dumps(build(), title), encoding="utf-8")
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
