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


