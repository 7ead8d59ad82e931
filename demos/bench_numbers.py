"""The numbers appendix D and the chapters quote from the benchmark, stated where they are
measured (book/protocol.state): bench.py calls state_numbers with the data it saves in
out/bench/bench.json. Every time is cpu time (process time, with clang's own in the compile
block); every text value is rounded as its sentence says ("about", 2 or 3 digits)."""

from bench_clock import AGREEMENT, TRIES
from bench_relu import LOOP_RATIO_TARGET
from bench_tinygrad import TARGETS

from book.protocol import MACHINE_MARK as MACHINE
from book.protocol import significant, state


def state_numbers(data: dict) -> None:
    state_rules()
    state_relu(data["relu_cpu_ns"], data["relu_plain_loop"])
    state_compile(data["compile_cpu"])
    state_graphs(data["graphs"])
    tinygrad = data["tinygrad"]
    if tinygrad["version"] and tinygrad.get("figures"):
        state_tinygrad(tinygrad)
    loop_met = data["relu_plain_loop"]["met"]
    verdict = "met" if loop_met else "missed"
    state("bench_target_loop_verdict", verdict, f"the C loop's target met or missed {MACHINE}")


def state_rules() -> None:
    """The bounds the benchmark holds itself to, from the constants that enforce them."""
    state("bench_targets", len(TARGETS) + 1, "targets the project sets itself against tinygrad")
    for key, name in (
        ("bench_goal_nodes_per_s", "nodes_per_second_cpu"),
        ("bench_goal_chain", "chain_seconds_cpu"),
        ("bench_goal_bytes", "bytes_per_distinct_node"),
    ):
        sense, bound = TARGETS[name]
        state(key, bound, f"the target's bound on uopc/tinygrad ({sense})")
    state("bench_goal_loop", LOOP_RATIO_TARGET, "the most the C loop may take over a plain one")
    agreement = round((AGREEMENT - 1) * 100)
    state("bench_agreement_percent", agreement, "% wall and cpu time may differ in a timed run")
    state("bench_clock_tries", TRIES, "runs of a measurement before a disagreement stops it")


def state_tinygrad(tinygrad: dict) -> None:
    """uopc beside tinygrad: the ratios of the pairs (median, lowest, highest), the bytes, the
    node counts with the further rules on, and each target met or missed."""
    figures = tinygrad["figures"]
    for key, figure, what in (
        ("bench_target_nodes_per_s", "nodes_per_second_cpu", "nodes per second"),
        ("bench_target_chain", "chain_seconds_cpu", "time on the chain of additions"),
        ("bench_target_bytes", "bytes_per_distinct_node", "bytes per distinct node"),
    ):
        # three digits: enough to show why a ratio that rounds to its bound missed it
        ratio = significant(figures[figure]["uopc_over_tinygrad"], 3)
        state(key, ratio, f"uopc's {what} over tinygrad's, 3 digits {MACHINE}")
        verdict = "met" if figures[figure]["met"] else "missed"
        state(f"{key}_verdict", verdict, f"that target met or missed {MACHINE}")
    state("bench_expression_pairs", tinygrad["pairs"], "interleaved pairs on the expressions")
    state("bench_chain_pairs", tinygrad["chain_pairs"], "interleaved pairs on the chain")
    speed, chain = "uopc/tinygrad nodes per cpu second", "uopc/tinygrad cpu seconds on the chain"
    for key, figure, part, what in (
        ("bench_nodes_per_s_ratio_median", "nodes_per_second_cpu", "median", speed),
        ("bench_nodes_per_s_ratio_min", "nodes_per_second_cpu", "min", speed),
        ("bench_nodes_per_s_ratio_max", "nodes_per_second_cpu", "max", speed),
        ("bench_chain_ratio_median", "chain_seconds_cpu", "median", chain),
        ("bench_chain_ratio_min", "chain_seconds_cpu", "min", chain),
        ("bench_chain_ratio_max", "chain_seconds_cpu", "max", chain),
    ):
        which = {"median": "the median", "min": "the lowest", "max": "the highest"}[part]
        meaning = f"{what}, {which} of the pairs' ratios, 2 decimals {MACHINE}"
        state(key, f"{figures[figure][part]:.2f}", meaning)
    state_overlay(figures, tinygrad["twins"], tinygrad["lock_ns"])
    memory = tinygrad["memory"]["tinygrad"]
    bytes_per_node = round(memory["bytes_per_distinct_node"])
    state("bench_tinygrad_bytes_per_node", bytes_per_node, f"tinygrad's bytes per node {MACHINE}")
    allowed = int(TARGETS["bytes_per_distinct_node"][1] * memory["bytes_per_distinct_node"])
    state("bench_bytes_allowed", allowed, f"the most bytes per node the target allows {MACHINE}")
    total = sum(tinygrad["memory"]["uopc"]["parts"].values())
    above = "above" if total > allowed else "within"
    state("bench_parts_vs_allowed", above, f"one ADD node's parts above or within that {MACHINE}")
    ratio = f"{figures['bytes_per_distinct_node']['uopc_over_tinygrad']:.2f}"
    state(
        "bench_bytes_ratio", ratio, f"uopc/tinygrad bytes per distinct node, one measure {MACHINE}"
    )
    for key, figure, what in (
        ("bench_tinygrad_nodes_after", "nodes_after", "nodes left, summed over the expressions"),
        ("bench_tinygrad_distinct_after", "distinct_after", "distinct nodes left"),
    ):
        state(key, figures[figure]["tinygrad"], f"tinygrad: {what}")
    for key, figure, what in (
        ("bench_target_nodes_after_further_verdict", "nodes_after_further", "summed"),
        ("bench_target_distinct_after_further_verdict", "distinct_after_further", "distinct"),
    ):
        verdict = "met" if figures[figure]["met"] else "missed"
        meaning = f"the target of no more {what} nodes after than tinygrad's, further rules on"
        state(key, verdict, f"{meaning}: met or missed")
    seconds = tinygrad["pairs_seconds"]
    state(
        "bench_pairs_s",
        round(seconds["expressions"] + seconds["chain"]),
        f"s the pairs took, wall {MACHINE}",
    )
    state("bench_chain_pairs_s", round(seconds["chain"]), f"s of it on the chain {MACHINE}")


def state_relu(relu: dict, plain: dict) -> None:
    """relu(x*y+1) three ways, in ns of cpu time per element or per call."""
    interp, per_call, loop = relu["interpreter"], relu["ctypes_per_element"], relu["c_loop"]
    state("bench_interp_ns_per_element", significant(interp, 3), f"interpreter, ns {MACHINE}")
    state("bench_ctypes_ns_per_call", significant(per_call, 3), f"one ctypes call, ns {MACHINE}")
    state("bench_loop_ns_per_element", significant(loop, 2), f"the C loop, ns {MACHINE}")
    plain_ns = significant(plain["cpu"], 2)
    state("bench_loop_plain_ns_per_element", plain_ns, f"a plain -O2 C loop, ns {MACHINE}")
    state("bench_ratio_interp_loop", f"{interp / loop:,.0f}", f"interpreter over loop {MACHINE}")
    state("bench_ratio_ctypes_loop", f"{per_call / loop:,.0f}", f"ctypes call over loop {MACHINE}")
    ratio = f"{loop / plain['cpu']:.2f}"
    state("bench_ratio_loop_plain", ratio, f"our loop over the plain -O2 loop {MACHINE}")


def state_compile(times: dict) -> None:
    """Compile times of growing functions at -O0 and -O2, and how they grow with the size."""
    statements = times["statements"]
    order = sorted(range(len(statements)), key=lambda i: statements[i])
    largest, before = order[-1], order[-2]
    state("bench_compile_largest_statements", statements[largest], "statements, largest size")
    state("bench_compile_before_statements", statements[before], "statements, the size before")
    state("bench_compile_smallest_statements", statements[order[0]], "statements, smallest")
    share = round(100 * times["empty"]["O2"] / times["O2"][order[0]])
    state("bench_compile_startup_share_o2", share, f"% of the smallest -O2 compile {MACHINE}")
    for level in ("O0", "O2"):
        low, empty = level.lower(), times["empty"][level]
        net, net_before = times[level][largest] - empty, times[level][before] - empty
        state(f"bench_compile_largest_{low}_s", f"{times[level][largest]:.3f}", f"s {MACHINE}")
        state(f"bench_compile_empty_{low}_s", f"{empty:.3f}", f"s, an empty file {MACHINE}")
        state(f"bench_compile_net_{low}_s", f"{net:.3f}", f"s, less the empty file {MACHINE}")
        growth = net / net_before
        state(f"bench_compile_growth_{low}", f"{growth:.1f}", f"net time growth {MACHINE}")
        state(f"bench_compile_shape_{low}", compile_shape(times, level), f"growth {MACHINE}")


def compile_shape(times: dict, level: str) -> str:
    """How clang's time above start-up grew at `level` between the two largest sizes, against
    the growth of the size: shape's words."""
    statements = times["statements"]
    order = sorted(range(len(statements)), key=lambda i: statements[i])
    largest, before = order[-1], order[-2]
    empty = times["empty"][level]
    growth = (times[level][largest] - empty) / (times[level][before] - empty)
    return shape(growth / (statements[largest] / statements[before]))


def compile_claims(times: dict, says: str) -> list[str]:
    """The runtime's size-limit message says how clang's time grows at -O2 (runtime.py's
    COMPILE_GROWTH): a false claim when this run measured another shape."""
    measured = compile_shape(times, "O2")
    if measured == says:
        return []
    return [f"compile: clang's time at -O2 grew {measured}, the runtime's message says {says}"]


def shape(relative: float) -> str:
    """How a time grew against the size: within 20% of it is "about linearly"."""
    if relative > 1.2:
        return "more than linearly"
    if relative < 1 / 1.2:
        return "less than linearly"
    return "about linearly"


def state_graphs(graphs: dict) -> None:
    """The 300 index expressions: their size, memory and simplify speed; p = p + p."""
    state("bench_expressions", graphs["expressions"], "index expressions built and simplified")
    state("bench_graph_nodes_total", graphs["nodes"], "their nodes, summed over expressions")
    state("bench_graph_nodes_distinct", graphs["distinct"], "of them, distinct nodes")
    state("bench_graph_kib", round(graphs["traced_bytes"] / 1024), f"KiB to build them {MACHINE}")
    bytes_per_node = round(graphs["bytes_per_distinct_node"])
    state("bench_bytes_per_node", bytes_per_node, f"bytes per distinct node {MACHINE}")
    parts = graphs["node_parts"]
    for key, part, what in (
        ("bench_part_node", "node", "the node object itself"),
        ("bench_part_src", "src tuple", "its tuple of two srcs"),
        ("bench_part_id", "id", "its id, an int"),
        ("bench_part_weakref", "weak reference", "the weak reference the table holds it by"),
        ("bench_part_entry", "table entry", "its share of the table's dict"),
    ):
        state(key, parts[part], f"bytes of one new i32 ADD node: {what} {MACHINE}")
    total = sum(parts.values())
    state("bench_part_total", total, f"bytes of one new i32 ADD node, its five parts {MACHINE}")
    milliseconds = round(graphs["simplify_seconds_cpu"] * 1000)
    state("bench_simplify_ms", milliseconds, f"ms of cpu to simplify them all {MACHINE}")
    speed = round(graphs["nodes_per_second_cpu"])
    state("bench_simplify_nodes_per_s", speed, f"nodes simplified per cpu second {MACHINE}")
    state("bench_graph_nodes_after", graphs["nodes_after"], "nodes left after simplify")
    state("bench_graph_distinct_after", graphs["distinct_after"], "distinct nodes left after it")
    further, distinct = graphs["nodes_after_further"], graphs["distinct_after_further"]
    state("bench_nodes_after_further", further, "nodes left with the further rules on, summed")
    state("bench_distinct_after_further", distinct, "distinct nodes left, further rules on")
    doubling = graphs["doubling"]
    state("bench_doublings", doubling["count"], "times p = p + p is applied")
    state("bench_doubling_nodes", doubling["nodes"], "nodes of p after the doublings")
    state("bench_doubling_tree", doubling["tree"], "nodes p would have as a tree")


# the twins by the name install(without=...) takes -> the key's last word
TWIN_KEYS = {
    "infer": "infer", "new": "new", "binary": "binary", "fill_ranges": "fill_ranges",
    "range": "range", "build": "build", "replace_src": "replace_src", "rewrite": "rewrite",
    "rewrite_to_fixed_point": "walk", "enum": "enum",
}  # fmt: skip


def state_overlay(figures: dict, twins: dict, lock_ns: float) -> None:
    """The plain code's ratios to tinygrad, the overlay's gain, and each twin's weight."""
    for key, figure, what in (
        (
            "bench_plain_nodes_per_s_ratio_median",
            "plain_nodes_per_second_cpu",
            "nodes per cpu second",
        ),
        ("bench_plain_chain_ratio_median", "plain_chain_seconds_cpu", "cpu seconds on the chain"),
    ):
        meaning = f"plain uopc (no overlay)/tinygrad {what}, median of the pairs {MACHINE}"
        state(key, f"{figures[figure]['median']:.2f}", meaning)
    gain = figures["overlay_speedup"]["median"]
    state("bench_overlay_speedup", f"{gain:.2f}", f"plain over overlay cpu time {MACHINE}")
    for name, word in TWIN_KEYS.items():
        value = twins[f"uopc, without {name}"]
        meaning = f"cpu time without the twin of {name} over with every twin {MACHINE}"
        state(f"bench_without_{word}", f"{value:.2f}", meaning)
    meaning = f"cpu ns to enter and leave the table's lock with `with` {MACHINE}"
    state("bench_lock_ns", round(lock_ns), meaning)
