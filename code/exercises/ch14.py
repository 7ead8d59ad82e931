"""Chapter 14 · Memory: the answers to exercises 14.1-14.5.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch14.
"""

from uopc import F32, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.interp import run_call
from uopc.runtime import Buffer, Program
from uopc.symbolic import simplify
from uopc.textfmt import dumps

from answers import check, exercise, out


def buffer_arg(slot, dtype, size) -> UOp:
    return UOp(Ops.BUFFER, (), ParamArg(slot, Ptr(dtype, size)))


def run_everywhere(call, lists) -> dict:
    """The buffers after the interpreter in both orders and after the compiled C."""
    results = {}
    for order in ("id", "dfs"):
        copies = [list(values) for values in lists]
        run_call(call, copies, order)
        results[order] = copies
    buffers = [Buffer(F32, len(values)).copyin(values) for values in lists]
    Program(call)(*buffers)
    results["C"] = [b.tolist() for b in buffers]
    return results


@exercise("ch14", "14.1", "a Builder swap of a[0] and a[1]")
def ex_14_1():
    kernel = Builder()
    a = kernel.buffer(0, F32, 2)
    first, second = a.load(0), a.load(1)
    store0 = a.store(0, second)
    store1 = a.store(1, first)
    call = make_call(kernel.body(), [buffer_arg(0, F32, 2)], "swap")
    print("\n".join(f"    {line}" for line in dumps(call).splitlines()))
    afters = [n for n in call.toposort() if n.op is Ops.AFTER]
    pointer0, pointer1 = store0.src[0].src[0], store1.src[0].src[0]
    check(len(afters) == 2, f"{len(afters)} AFTER nodes")
    check(pointer0.op is Ops.AFTER and set(pointer0.src[1:]) == {first, second}, "store 0")
    check(pointer1.op is Ops.AFTER and pointer1.src[1:] == (store0,), "store 1")
    results = run_everywhere(call, [[1.0, 2.0]])
    check(all(r == [[2.0, 1.0]] for r in results.values()), f"{results}")
    out(
        f"{len(afters)} AFTERs: the first store waits for both loads, the second store's pointer "
        "comes after the first store"
    )
    out(f"interpreter (id, dfs) and C: {results['C'][0]}")


@exercise("ch14", "14.2", "the same swap by hand, with no AFTER")
def ex_14_2():
    buf = UOp(Ops.PARAM, (), ParamArg(0, Ptr(F32, 2)))
    load0, load1 = (UOp(Ops.LOAD, (UOp(Ops.INDEX, (buf, UOp.const(k))),)) for k in (0, 1))
    store0 = UOp(Ops.STORE, (UOp(Ops.INDEX, (buf, UOp.const(0))), load1))
    store1 = UOp(Ops.STORE, (UOp(Ops.INDEX, (buf, UOp.const(1))), load0))
    call = make_call(UOp.sink(store0, store1), [buffer_arg(0, F32, 2)], "swap")
    results = run_everywhere(call, [[1.0, 2.0]])
    check(results["id"] != results["dfs"], "the two orders agree")
    check(results["id"] == [[2.0, 1.0]], f"order id gives {results['id']}")
    check(results["dfs"] == results["C"] == [[2.0, 2.0]], "C follows the dfs order")
    out(
        f"order id {results['id'][0]} (swapped), order dfs {results['dfs'][0]} (wrong), "
        f"C {results['C'][0]} (the dfs order)"
    )


@exercise("ch14", "14.3", "a[i+1] = a[i] for i = 0..2, sequenced")
def ex_14_3():
    kernel = Builder()
    a = kernel.buffer(0, F32, 4)
    loads = []
    for i in range(3):
        loads.append(a.load(i))
        a.store(i + 1, loads[-1])
    call = make_call(kernel.body(), [buffer_arg(0, F32, 4)], "shift")
    simulated = [1.0, 2.0, 3.0, 4.0]
    for i in range(3):
        simulated[i + 1] = simulated[i]
    results = run_everywhere(call, [[1.0, 2.0, 3.0, 4.0]])
    check(all(r == [simulated] for r in results.values()), f"{results}")
    load_nodes = [n for n in call.toposort() if n.op is Ops.LOAD]
    pointers = {id(n.src[0].src[0]) for n in load_nodes}
    check(len(load_nodes) == 3 and len(pointers) == 3, f"{len(load_nodes)} LOADs")
    simplified = run_everywhere(simplify(call), [[1.0, 2.0, 3.0, 4.0]])
    check(all(r == [simulated] for r in simplified.values()), f"simplified: {simplified}")
    out(
        f"interpreter (id, dfs) and C, before and after simplify: {results['C'][0]}, as the "
        "Python loop gives"
    )
    out(
        f"{len(load_nodes)} LOAD nodes: each load reads the version left by the store before "
        "it, so no two loads are the same node"
    )


@exercise("ch14", "14.4", "reading ALLOC memory never written")
def ex_14_4():
    kernel = Builder()
    result, scratch = kernel.buffer(0, F32, 1), kernel.alloc(1, F32, 2)
    result.store(0, scratch.load(0))
    call = make_call(kernel.body(), [buffer_arg(0, F32, 1)], "read_scratch")
    try:
        run_call(call, [[0.0]])
        message = None
    except RuntimeError as error:
        message = str(error)
    check(message == "read of memory that was never written", f"message {message!r}")
    written = Builder()
    result, scratch = written.buffer(0, F32, 1), written.alloc(1, F32, 2)
    scratch.store(0, 5.0)
    result.store(0, scratch.load(0))
    data = [0.0]
    run_call(make_call(written.body(), [buffer_arg(0, F32, 1)], "ok"), [data])
    check(data == [5.0], "a written element reads back")
    out(f"the interpreter raises: {message}")
    out("C would read whatever the stack held there: no error, an unpredictable value")


@exercise("ch14", "14.5", "one buffer passed as both arguments")
def ex_14_5():
    kernel = Builder()
    source, target = kernel.buffer(0, F32, 2), kernel.buffer(1, F32, 2)
    target.store(0, 7.0)
    target.store(1, source.load(0))  # ordered after the store only within `target`
    call = make_call(kernel.body(), [buffer_arg(0, F32, 2), buffer_arg(1, F32, 2)], "copy")

    def simulate(a, b):  # the C statements in order: b[0] = 7; v = a[0]; b[1] = v
        b[0] = 7.0
        b[1] = a[0]
        return b

    program = Program(call)
    a, b = Buffer(F32, 2).copyin([1.0, 2.0]), Buffer(F32, 2)
    program(a, b)
    shared = Buffer(F32, 2).copyin([1.0, 2.0])
    try:
        program(shared, shared)
        refused = False
    except ValueError:
        refused = True
    program(shared, shared, allow_alias=True)
    apart_sim = simulate([1.0, 2.0], [0.0, 0.0])
    alias_list = [1.0, 2.0]
    alias_sim = simulate(alias_list, alias_list)
    check(refused, "the runtime runs a repeated buffer without the opt-in")
    check(b.tolist() == apart_sim, f"two buffers: {b.tolist()}")
    check(shared.tolist() == alias_sim, f"one buffer twice: {shared.tolist()}")
    check(apart_sim != alias_sim, "the two results agree")
    lists = [[1.0, 2.0], [0.0, 0.0]]
    run_call(call, lists)
    check(lists[1] == apart_sim, f"the interpreter gives {lists[1]} with two buffers")
    out(f"two buffers: second argument {b.tolist()}; one buffer twice: {shared.tolist()}")
    out("each matches the Python simulation; without allow_alias=True the call is refused")
