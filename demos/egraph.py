"""Equality saturation on one example: a*(b+c) with distribute and factor (Chapter 8).

    python demos/egraph.py          the quoted block, `egraph`
    python demos/egraph.py --json   the saturated e-graph as data, for scripts/make_figures.py

A small e-graph, enough for this one example and not part of `uopc`: e-nodes (an op, its arg and
the classes of its sources) sorted into classes by a union-find. `saturate` applies every rule
to every term of every class, round after round, and adds each answer to the class of the term
it matched, until a round adds no e-node and merges no class. The rules are demos/run_demos.py's
distribute and factor, the pair that sends `graph_rewrite` round in circles (demo 2 there).

What chapter 8 says, checked here (the run fails otherwise): the class of a*(b+c) ends with both
forms, a*(b+c) and a*b + a*c; distribute added e-nodes; factor matched and added nothing new;
the second round, in which distribute matches the start again and factor the sum, adds nothing,
so saturation comes without a limit to stop it. Chapter 8's figure, egraph.svg, is drawn from
the `--json` output, so it shows the e-graph this program computes.
"""

from _common import block, claim, finish, param

import itertools
import json
import sys

from run_demos import LOOP_RULES  # the demo's own rules: what graph_rewrite loops on

from uopc import I32, UOp
from uopc.textfmt import LEAVES, infix
from uopc.uop import arg_key

NAMES = {0: "a", 1: "b", 2: "c"}
ROUNDS = 10  # far more than the example needs: a round that changes nothing ends it


class EGraph:
    """E-nodes (op, arg key, classes of the sources) in classes kept by a union-find, and for
    each class the first term that made it."""

    def __init__(self):
        self.parent: list[int] = []
        self.nodes: dict[tuple, int] = {}  # e-node -> its class, canonical after rebuild()
        self.made: dict[tuple, tuple] = {}  # e-node -> (its op and arg, the rule that added it)
        self.term: list[UOp] = []  # class -> the first term that made it

    def find(self, k: int) -> int:
        while self.parent[k] != k:
            k = self.parent[k]
        return k

    def add(self, root: UOp, by: str) -> int:
        """The class of root, adding an e-node for each node of it not there yet."""
        of: dict[UOp, int] = {}
        for u in root.toposort():
            enode = (u.op, arg_key(u.arg), tuple(self.find(of[s]) for s in u.src))
            if enode not in self.nodes:
                self.nodes[enode] = len(self.parent)
                self.made[enode] = ((u.op, u.arg), by)
                self.parent.append(len(self.parent))
                self.term.append(u)
            of[u] = self.find(self.nodes[enode])
        return of[root]

    def union(self, a: int, b: int) -> bool:
        a, b = self.find(a), self.find(b)
        self.parent[max(a, b)] = min(a, b)  # the older class keeps its id and its term
        return a != b

    def rebuild(self) -> None:
        """Sources made canonical; two e-nodes that become one merge their classes."""
        merged = True
        while merged:
            merged, nodes, made = False, {}, {}
            for (op, key, srcs), k in self.nodes.items():
                enode = (op, key, tuple(self.find(s) for s in srcs))
                if enode in nodes:
                    merged |= self.union(nodes[enode], k)
                else:
                    nodes[enode], made[enode] = k, self.made[(op, key, srcs)]
            self.nodes = {enode: self.find(k) for enode, k in nodes.items()}
            self.made = made

    def classes(self) -> dict[int, list[tuple]]:
        found: dict[int, list[tuple]] = {}
        for enode, k in self.nodes.items():
            found.setdefault(self.find(k), []).append(enode)
        return found

    def terms(self, k: int):
        """Each term of class k two levels deep, below that the first term of each class: what
        a rule of two levels, such as distribute and factor, can match."""
        classes = self.classes()
        for enode in classes[k]:
            (op, arg), _ = self.made[enode]
            choices = [[self.shallow(e) for e in classes[self.find(s)]] for s in enode[2]]
            for srcs in itertools.product(*choices):
                yield UOp(op, tuple(srcs), arg)

    def shallow(self, enode: tuple) -> UOp:
        """The e-node as a term, each source the first term of its class."""
        (op, arg), _ = self.made[enode]
        return UOp(op, tuple(self.term[self.find(s)] for s in enode[2]), arg)


# --8<-- [start:saturate]
def saturate(start: UOp, rules, say=print) -> tuple[EGraph, int, dict]:
    """Every rule on every term of every class, round after round, each answer added to the
    class of the term it matched, until a round adds no e-node and merges no class.
    The e-graph, the class of start, and per rule [matches, e-nodes it added]."""
    graph, counts = EGraph(), {r.name: [0, 0] for r in rules}
    root = graph.add(start, "")
    for round_number in range(1, ROUNDS + 1):
        found = []  # every match of the round, found before any answer is added
        for k in graph.classes():
            for term, r in itertools.product(graph.terms(k), rules):
                store: dict = {}
                if r.pat.match(term, store):
                    found.append((k, r.name, r.fn(**store)))
        before = (len(graph.nodes), len(graph.classes()))
        for k, name, answer in found:
            size = len(graph.nodes)
            graph.union(k, graph.add(answer, name))  # the answer joins the matched class
            counts[name][0] += 1
            counts[name][1] += len(graph.nodes) - size
        graph.rebuild()
        say(f"round {round_number}: matches {len(found)}, e-nodes {len(graph.nodes)}")
        if (len(graph.nodes), len(graph.classes())) == before:
            return graph, graph.find(root), counts
    raise SystemExit(f"egraph: no saturation in {ROUNDS} rounds")


# --8<-- [end:saturate]


def written(graph: EGraph, enode: tuple) -> str:
    """An e-node written out, each source as the first term of its class."""
    return infix(graph.shallow(enode), NAMES).removeprefix("(").removesuffix(")")


def as_data(graph: EGraph) -> list[dict]:
    """Every e-node, for the figure: its class, op, how it is written, the rule that added it
    ("" for the start) and the classes of its sources."""
    rows = []
    for enode, k in graph.nodes.items():
        (op, arg), by = graph.made[enode]
        leaf = op in LEAVES
        text = NAMES[arg.slot] if leaf else written(graph, enode)
        sources = [graph.find(s) for s in enode[2]]
        rows.append({"class": k, "op": op.name.lower(), "leaf": leaf, "text": text, "by": by,
                     "sources": sources})  # fmt: skip
    return rows


def main() -> int:
    a, b, c = param(0, I32), param(1, I32), param(2, I32)
    start = a * (b + c)
    if sys.argv[1:] == ["--json"]:
        graph, _, _ = saturate(start, LOOP_RULES, say=lambda line: None)
        print(json.dumps(as_data(graph), indent=1))
        return 0
    block("egraph")
    print(f"start: {infix(start, NAMES)[1:-1]}, rules: distribute, factor (demos/run_demos.py)")
    rounds: list[str] = []
    graph, root, counts = saturate(start, LOOP_RULES, say=rounds.append)
    print("\n".join(rounds))
    for name, (matches, added) in counts.items():
        print(f"{name}: matches {matches}, e-nodes added {added}")
    classes = graph.classes()
    print(f"saturated: {len(classes)} classes, {len(graph.nodes)} e-nodes")
    forms = sorted(written(graph, enode) for enode in classes[root])
    print("the class of the start holds: " + " and ".join(forms))
    claim(len(forms) == 2, "the class of the start holds both forms")
    claim(counts["distribute"][1] > 0, "distribute added e-nodes")
    claim(counts["factor"][0] > 0 and counts["factor"][1] == 0, "factor added nothing new")
    both = counts["distribute"][0] == 2 and counts["factor"][0] == 1  # once a round, then once
    claim(len(rounds) == 2 and both, "the second round, in which both rules match, adds nothing")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
