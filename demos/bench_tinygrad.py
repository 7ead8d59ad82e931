"""Benchmark blocks `tinygrad`, `pairs`, `targets` and `tinygrad-method`: uopc beside tinygrad.

The same expressions and chains as the `graphs` block, given to tinygrad through its adapter
(`Tinygrad`, every name looked up one by one), its results checked on every point by an
evaluator written here; then the table of both libraries' figures and their ratios, the ratio
of each interleaved pair of timed runs (uopc's, then tinygrad's) with their median and spread,
and the targets. The timed targets are judged on the median of the pairs' ratios in cpu time
(process time: this process only, so less disturbed by other jobs than wall time), the bytes
on one tracemalloc measure, and the node counts (the further rules on) on the counts themselves.
"""

import contextlib
import textwrap

from bench_graphs import COLUMNS, INT_MAX, INT_MIN, INT_OPS, NAMES, POINTS, spread
from tinygrad_demo import find

from book.protocol import MACHINE_MARK as MACHINE
from book.protocol import significant

# uopc/tinygrad: (sense, bound). The two speeds are judged on the median of the pairs' ratios
# in cpu time, the bytes on one tracemalloc measure, the node counts (the further rules on)
# on the counts themselves: a bound of 1 is "no more than tinygrad's".
TARGETS = {
    "nodes_per_second_cpu": (">=", 10),
    "chain_seconds_cpu": ("<=", 0.15),
    "bytes_per_distinct_node": ("<=", 0.8),
    "nodes_after_further": ("<=", 1),
    "distinct_after_further": ("<=", 1),
}
# the timed figures measured in interleaved pairs: (table row, which way the ratio goes)
PAIRED = {
    "simplify_seconds_wall": ("simplify", "walls", "time"),
    "simplify_seconds_cpu": ("simplify", "cpus", "time"),
    "nodes_per_second": ("simplify", "walls", "rate"),
    "nodes_per_second_cpu": ("simplify", "cpus", "rate"),
    "chain_seconds_wall": ("chain", "walls", "time"),
    "chain_seconds_cpu": ("chain", "cpus", "time"),
}


def met(value, sense: str, bound) -> bool:
    """Is a target met: value (a measured ratio; None when there is none) against its bound."""
    if value is None:
        return False
    if sense == ">=":
        return value >= bound
    if sense == "<=":
        return value <= bound
    raise ValueError(f"no such sense {sense!r}")


def verdict(value, sense: str, bound) -> str:
    return "met" if met(value, sense, bound) else "MISSED"


def pair_ratios(uopc: list[float], tinygrad: list[float], way: str, nodes=(1, 1)) -> list[float]:
    """uopc/tinygrad for each pair (entry i of both lists): of the times themselves (way
    "time"), or of the rates nodes/time that each library's own node count gives ("rate")."""
    if len(uopc) != len(tinygrad):
        raise ValueError(f"{len(uopc)} uopc runs against {len(tinygrad)} tinygrad runs: no pairs")
    if way == "time":
        return [u / t for u, t in zip(uopc, tinygrad, strict=True)]
    return [(nodes[0] / u) / (nodes[1] / t) for u, t in zip(uopc, tinygrad, strict=True)]


class Tinygrad:
    """tinygrad through names looked up one by one: a missing name stops with a clear message."""

    name = "tinygrad"

    def mode(self):
        """What the timed part runs under: tinygrad as it is (uopc's overlay is not tinygrad's)."""
        return contextlib.nullcontext()

    def __init__(self):
        self.UOp = find("tinygrad.uop.ops.UOp")
        self.Ops = find("tinygrad.uop.Ops")
        self.graph_rewrite = find("tinygrad.uop.ops.graph_rewrite")
        self.symbolic = find("tinygrad.uop.symbolic.symbolic")  # what UOp.simplify applies
        self.index = find("tinygrad.dtype.dtypes.weakint")  # the dtype UOp.variable defaults to
        self.context = find("tinygrad.helpers.Context")
        self.stack_limit = find("tinygrad.uop.ops.REWRITE_STACK_LIMIT")  # a ContextVar
        # a functools.cache on div/mod nodes: it would carry rewrites (and nodes) from one
        # timed repetition into the next, so it is emptied between repetitions
        self.memo = find("tinygrad.uop.divandmod.fold_divmod_general")
        if not hasattr(self.memo, "cache_clear"):
            raise SystemExit("tinygrad's fold_divmod_general has no cache_clear any more")

    def param(self, slot, lo, hi):
        return self.UOp.variable(NAMES[slot], lo, hi, self.index)

    def const(self, value):
        return self.UOp.const(value, self.index)

    def alu(self, op, srcs):
        if op == "NEG":
            return -srcs[0]  # tinygrad has no integer NEG: its own negation builds x*-1
        return self.UOp(self.Ops[op], src=srcs)

    def simplify(self, root):
        return self.graph_rewrite(root, self.symbolic)

    def nodes(self, root):
        return list(root.toposort())

    def forget(self):
        self.memo.cache_clear()

    def chain(self, n):
        node = self.UOp.variable("x", INT_MIN, INT_MAX, self.index)
        for c in range(1, n + 1):
            node = self.UOp(self.Ops.ADD, src=(node, self.const(c)))
        return node

    def chain_value(self, result):
        return tinygrad_values(result, {"x": [0]})[0]

    def check(self, seed, original, result, expected):
        return check_tinygrad(seed, original, result, expected)


def tinygrad_values(root, columns: dict) -> list:
    """The value of a tinygrad graph for each row of columns (variable name -> values).

    Written here from each op's meaning, not with tinygrad's own evaluator, so that the check
    does not share tinygrad's mistakes. An op not listed stops the check with its name.
    """
    rows = len(next(iter(columns.values())))
    values = {}
    for u in root.toposort():
        op = u.op.name
        if op == "STACK" and not u.src:
            values[u] = None  # the empty shape under a variable: no value
        elif op in ("BUFFER", "PARAM") and getattr(u.arg, "name", None) in columns:
            values[u] = columns[u.arg.name]
        elif op == "CONST":
            values[u] = [u.arg] * rows
        elif op == "CAST" and u.dtype.name == "bool":
            values[u] = [bool(v) for v in values[u.src[0]]]
        elif op == "CAST" and u.dtype.name in ("weakint", "int", "long"):
            values[u] = [int(v) for v in values[u.src[0]]]
        elif op in INT_OPS:
            fn = INT_OPS[op]
            values[u] = [fn(*args) for args in zip(*(values[s] for s in u.src), strict=True)]
        else:
            raise SystemExit(f"tinygrad_values: no meaning written here for {op} ({u.dtype})")
    return values[root]


def check_tinygrad(seed, original, result, expected) -> tuple[int, list]:
    """(points checked, failures): the original (a check of the adapter and of the evaluator)
    and the simplified graph, each against the reference."""
    failures = []
    for what, graph in (("original", original), ("simplified", result)):
        got = tinygrad_values(graph, COLUMNS)
        for point, g, want in zip(POINTS, got, expected, strict=True):
            if g != want:
                failures.append(
                    f"tinygrad, seed {seed}: at (i, j, k) = {point} the {what} graph gives {g}, "
                    f"the reference {want}\n  original:   {original.render(simplify=False)}\n"
                    f"  simplified: {result.render(simplify=False)}"
                )
                break
    return len(POINTS), failures


def ratio(a, b):
    return a / b if a is not None and b else None


def comparison(data, memory, sizes) -> dict:
    """Every figure of both libraries, uopc/tinygrad for each, and the targets judged.

    A timed figure holds each library's median and, as its ratio, the median of the pairs'
    ratios (with the pairs, the lowest and the highest); the others hold one ratio."""
    u, t = data["uopc"], data["tinygrad"]
    further = u["further"]["after"]
    rows = {
        "nodes_before": (u["before"]["sum"], t["before"]["sum"]),
        "distinct_before": (u["before"]["distinct"], t["before"]["distinct"]),
        "nodes_after": (u["after"]["sum"], t["after"]["sum"]),
        "distinct_after": (u["after"]["distinct"], t["after"]["distinct"]),
        "nodes_after_further": (further["sum"], t["after"]["sum"]),
        "distinct_after_further": (further["distinct"], t["after"]["distinct"]),
        "simplify_seconds_wall": (u["simplify"]["wall"], t["simplify"]["wall"]),
        "simplify_seconds_cpu": (u["simplify"]["cpu"], t["simplify"]["cpu"]),
        "nodes_per_second": (u["nodes_per_second"], t["nodes_per_second"]),
        "nodes_per_second_cpu": (u["nodes_per_second_cpu"], t["nodes_per_second_cpu"]),
        "bytes_traced": (memory["uopc"]["traced_bytes"], memory["tinygrad"]["traced_bytes"]),
        "bytes_per_distinct_node": (
            memory["uopc"]["bytes_per_distinct_node"],
            memory["tinygrad"]["bytes_per_distinct_node"],
        ),
        "chain_seconds_wall": (u["chain"]["wall"], t["chain"]["wall"]),
        "chain_seconds_cpu": (u["chain"]["cpu"], t["chain"]["cpu"]),
        "long_chain_seconds_wall": (
            u["long_chain"]["wall"] if u["long_chain"]["ok"] else None,
            t["long_chain"]["wall"] if t["long_chain"]["ok"] else None,
        ),
        "long_chain_seconds_cpu": (
            u["long_chain"]["cpu"] if u["long_chain"]["ok"] else None,
            t["long_chain"]["cpu"] if t["long_chain"]["ok"] else None,
        ),
    }
    table = {
        name: {"uopc": a, "tinygrad": b, "uopc_over_tinygrad": ratio(a, b)}
        for name, (a, b) in rows.items()
    }
    nodes = (u["before"]["sum"], t["before"]["sum"])
    for name, (run, clock, way) in PAIRED.items():
        found = spread(pair_ratios(u[run][clock], t[run][clock], way, nodes))
        table[name].update(found, uopc_over_tinygrad=found["median"])
    plain = data.get("plain")
    if plain is not None:  # the plain code in the same pairs: its own ratios to tinygrad
        for name in ("nodes_per_second_cpu", "chain_seconds_cpu"):
            run, clock, way = PAIRED[name]
            found = spread(pair_ratios(plain[run][clock], t[run][clock], way, nodes))
            both = {"uopc": plain[run][clock[:-1]], "tinygrad": t[run][clock[:-1]]}
            table[f"plain_{name}"] = {**both, **found, "uopc_over_tinygrad": found["median"]}
        runs = zip(plain["simplify"]["cpus"], u["simplify"]["cpus"], strict=True)
        found = spread([slow / fast for slow, fast in runs])  # plain over overlay, by turn
        both = {"uopc": plain["simplify"]["cpu"], "tinygrad": t["simplify"]["cpu"]}
        table["overlay_speedup"] = {**both, **found, "uopc_over_tinygrad": None}
    for name, (sense, bound) in TARGETS.items():
        table[name]["target"] = f"{sense} {bound}"
        table[name]["met"] = met(table[name]["uopc_over_tinygrad"], sense, bound)
    table["long_chain_handled"] = {
        "uopc": u["long_chain"]["ok"],
        "tinygrad": t["long_chain"]["ok"],
        "target": "uopc handles it",
        "met": u["long_chain"]["ok"],
    }
    return table


def number(value, digits: int) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def tinygrad_block(version, sizes, table, data) -> list[str]:
    n, chain, long = sizes["expressions"], sizes["chain"], sizes["long_chain"]
    rows = [
        ("nodes before (summed)", "nodes_before", 0),
        ("distinct nodes before", "distinct_before", 0),
        ("nodes after (summed)", "nodes_after", 0),
        ("distinct nodes after", "distinct_after", 0),
        ("further rules: after, sum", "nodes_after_further", 0),
        ("further rules: distinct", "distinct_after_further", 0),
        (f"simplify {n:,}, ms wall", "simplify_seconds_wall", 1),
        (f"simplify {n:,}, ms cpu", "simplify_seconds_cpu", 1),
        ("nodes per second, wall", "nodes_per_second", 0),
        ("nodes per second, cpu", "nodes_per_second_cpu", 0),
        ("bytes per distinct node", "bytes_per_distinct_node", 0),
        (f"chain {chain:,}, s wall", "chain_seconds_wall", 2),
        (f"chain {chain:,}, s cpu", "chain_seconds_cpu", 2),
        (f"chain {long:,}, s wall", "long_chain_seconds_wall", 2),
        (f"chain {long:,}, s cpu", "long_chain_seconds_cpu", 2),
    ]
    lines = [
        f"uopc beside tinygrad {version}, in this run  {MACHINE}",
        f"  {n:,} index expressions, each simplified alone",
        f"  {'figure':<26}{'uopc':>12}{'tinygrad':>12}{'ratio':>8}",
    ]
    for label, key, digits in rows:
        row = table[key]
        scale = 1000 if key.startswith("simplify_seconds") else 1
        a = None if row["uopc"] is None else row["uopc"] * scale
        b = None if row["tinygrad"] is None else row["tinygrad"] * scale
        lines.append(
            f"  {label:<26}{number(a, digits):>12}{number(b, digits):>12}"
            f"{number(row['uopc_over_tinygrad'], 2):>8}"
        )
    u, t = data["uopc"], data["tinygrad"]
    checked = f"{u['points_checked']:>12,}{t['points_checked']:>12,}"
    lines.append(f"  {'points checked, all right':<26}{checked}")
    further = u["further"]["points_checked"]
    lines.append(f"  {'further rules: all right':<26}{further:>12,}{'-':>12}")
    lines += long_chain_lines(long, u, t)
    note = (
        f"times: each library's median over the pairs ({sizes['pairs']:,} on the expressions, "
        f"{sizes['chain_pairs']:,} on the chain of {chain:,}), one run for the chain of "
        f"{long:,}; a timed ratio is the median of the pairs' ratios (next block), so it need "
        "not be the ratio of the two medians; wall is perf_counter, cpu is process_time (this "
        "process only)."
    )
    if not t["long_chain"]["ok"]:  # as at the book's sizes: tinygrad stopped on the long chain
        note += (
            " The chain that tinygrad finishes at its default stack limit stops at once, with "
            "the long chain's error, when the limit is lowered: what stops tinygrad on the "
            "long chain is its stack limit."
        )
    return lines + textwrap.wrap(note, width=66, initial_indent="  ", subsequent_indent="  ")


def pairs_block(table, sizes, cost: dict) -> list[str]:
    """The ratio of each pair, in turn order, with the median, the lowest and the highest."""
    n, chain = sizes["expressions"], sizes["chain"]
    bytes_ratio = table["bytes_per_distinct_node"]["uopc_over_tinygrad"]
    lines = [
        f"uopc/tinygrad in interleaved pairs, cpu time  {MACHINE}",
        "  a pair: uopc's run, then tinygrad's at once, each on fresh",
        "  graphs; one ratio per pair; then the median and the spread",
        "  (the lowest and the highest ratio)",
    ]
    for label, key, count in (
        (f"simplify {n:,}, nodes per second", "nodes_per_second_cpu", sizes["pairs"]),
        (f"chain of {chain:,}, seconds", "chain_seconds_cpu", sizes["chain_pairs"]),
    ):
        row = table[key]
        lines += [
            f"  {label}, {count:,} pairs:",
            *textwrap.wrap(
                " ".join(f"{r:.2f}" for r in row["pairs"]),
                width=68, initial_indent="    ", subsequent_indent="    ",
            ),
            f"    median {row['median']:.2f}, lowest {row['min']:.2f}, highest {row['max']:.2f}",
        ]  # fmt: skip
    lines += [
        f"  bytes per distinct node, one measure each: {bytes_ratio:.2f}",
        "    (tracemalloc counts bytes, not time: the load does not move it)",
        f"  the pairs took {cost['expressions']:,.0f} s (the expressions) and "
        f"{cost['chain']:,.0f} s (the chain), wall",
    ]
    return lines


def overlay_block(table, twins: dict, lock_ns: float, sizes) -> list[str]:
    """The plain code against tinygrad in the same pairs, and each twin of the overlay weighed
    by leaving it out (uopc/speed: appendix G)."""
    lines = [f"the speed overlay (uopc/speed) weighed, cpu time  {MACHINE}"]
    for label, key in (
        ("simplify, nodes per second", "nodes_per_second_cpu"),
        ("the chain, seconds", "chain_seconds_cpu"),
    ):
        fast, plain = table[key], table[f"plain_{key}"]
        lines += [
            f"  {label}, uopc/tinygrad, the median of the pairs:",
            f"    overlay {fast['median']:.2f}; plain {plain['median']:.2f} "
            f"(lowest {plain['min']:.2f}, highest {plain['max']:.2f})",
        ]
    speedup = table["overlay_speedup"]
    lines += [
        f"  plain over overlay on the expressions, in the same turns: {speedup['median']:.2f}",
        f"  each twin left out, the rest installed ({sizes['twin_turns']:,} turns): the time",
        "  over the time with every twin (above 1: the twin saves time)",
    ]
    lines += [f"    {name.removeprefix('uopc, ')}: {value:.2f}" for name, value in twins.items()]
    lines += [
        "  the table's lock, taken for each new node and each freed one:",
        f"    {lock_ns:.0f} ns cpu to enter and leave it (with)",
    ]
    return lines


def outcome_text(outcome: dict) -> str:
    if outcome["ok"]:
        return (
            f"{outcome['wall']:.2f} s wall, {outcome['cpu']:.2f} s cpu, {outcome['size']} nodes "
            f"after, value at x = 0: {outcome['value_at_0']:,}"
        )
    seconds = f"{outcome['wall']:.2f} s wall, {outcome['cpu']:.2f} s cpu"
    return f"stops after {seconds}: {outcome['error']}"


def wrapped(text: str) -> list[str]:
    return textwrap.wrap(text, width=68, initial_indent="    ", subsequent_indent="    ")


def long_chain_lines(long: int, u: dict, t: dict) -> list[str]:
    lines = []
    settings = {"uopc": "", "tinygrad": f" (stack limit {t['stack_limit']:,})"}
    for name, entry in (("uopc", u), ("tinygrad", t)):
        lines.append(f"  {name}, chain of {long:,} at its defaults{settings[name]}:")
        lines += wrapped(outcome_text(entry["long_chain"]))
    lowered = t["lowered_limit"]
    lines.append(f"  tinygrad, chain of {lowered['n']:,} (run to the end in the pairs),")
    lines.append(f"  REWRITE_STACK_LIMIT={lowered['limit']:,}:")
    lines += wrapped(outcome_text(lowered))
    return lines


def targets_block(table, relu_plain: dict, chain: int) -> list[str]:
    """The targets of this project, each judged here from what was measured."""
    lines = [
        f"the targets  {MACHINE}",
        "  uopc/tinygrad, cpu time, the median of the pairs:",
    ]
    for label, key in (
        ("simplify, nodes per second", "nodes_per_second_cpu"),
        (f"chain of {chain:,}, seconds", "chain_seconds_cpu"),
        (None, "bytes_per_distinct_node"),
    ):
        if label is None:
            lines.append("  uopc/tinygrad, one tracemalloc measure:")
            label = "bytes per distinct node"
        sense, bound = TARGETS[key]
        value = table[key]["uopc_over_tinygrad"]
        lines.append(
            f"    {label:<28}{significant(value, 3):>6}  target {sense} {bound}: "
            f"{verdict(value, sense, bound)}"
        )
    lines.append("  nodes after, the further rules on, uopc against tinygrad:")
    for label, key in (("summed", "nodes_after_further"), ("distinct", "distinct_after_further")):
        row = table[key]
        sense, bound = TARGETS[key]
        counts = f"{row['uopc']:,} against {row['tinygrad']:,}"
        lines.append(
            f"    {label:<10}{counts:>24}  target: no more: "
            f"{verdict(row['uopc_over_tinygrad'], sense, bound)}"
        )
    loop = verdict(relu_plain["ratio_cpu"], "<=", relu_plain["bound"])
    lines += [
        "  relu, the runtime's C loop / a plain -O2 loop, best of 3:",
        f"    {'ns per element':<28}{relu_plain['ratio_cpu']:>6.2f}  target "
        f"{relu_plain['target']}: {loop}",
    ]
    return lines


METHOD = [
    "One generator draws each expression as library-neutral terms (seeds 0 to {last}); an "
    "adapter builds them in each library: uopc on i32 PARAMs with declared bounds, tinygrad "
    "on UOp.variable(name, lo, hi) in its index dtype, {index}.",
    "Negation is each library's own: NEG in uopc, x*-1 in tinygrad (it has no integer NEG), "
    "so tinygrad's graphs have a few more nodes; each rate divides that library's own count.",
    "Simplifier: uopc.symbolic.simplify; in tinygrad graph_rewrite(u, symbolic), which is "
    "what UOp.simplify runs. One call per expression in both.",
    "Fresh graphs for every timed run, built untimed, after one untimed warm-up run; after "
    "each run every node it built must be freed (checked with weak references), and "
    "tinygrad's fold_divmod_general cache is cleared, so no run reuses another's ranges or "
    "rewrites.",
    "Pairs: the libraries take turns, uopc then tinygrad, {pairs} times on the expressions "
    "(after one untimed pair) and {chain_pairs} times on the chain, where each run lasts "
    "seconds (so a brief slow moment moves it little) and the pairs take most of the "
    "benchmark's time. Each pair gives one ratio, and a slow moment of the machine falls on "
    "both of its runs, so it moves that ratio less than it would move either time. The median "
    "of the ratios is judged; the lowest and the highest show the spread.",
    "The garbage collector is paused while timing both (uopc's rewrite pauses it itself). "
    "Every timed run is checked: wall and cpu time within 30% of each other, or it is run "
    "again.",
    "Correctness: each simplified expression of each library on all {points} points, against "
    "the original term's value computed here with Python ints and floor division: wrapped "
    "to int32 for uopc (its contract), unwrapped for tinygrad (its index dtype does not "
    "wrap). uopc's results go through uopc.interp.evaluate, tinygrad's (and its original "
    "graphs) through an evaluator written here. Expressions that overflow int32: "
    "{overflowed}.",
    "Memory: tracemalloc while each library builds the expressions, before this process "
    "has built any other graph, divided by the distinct nodes; measured once, since it "
    "counts bytes, which the machine's load does not change.",
    "Further rules: uopc.further.simplify_further (the strict rules and the further integer "
    "rules, off by default), its results checked on every point as the default ones are.",
    "Chains: x + 1 + 2 + ... + n, built untimed, then simplified.",
]


def method_lines(**values) -> list[str]:
    lines = ["how the comparison is made"]
    for item in METHOD:
        lines += textwrap.wrap(
            item.format(**values), width=70, initial_indent="  - ", subsequent_indent="    "
        )
    return lines
