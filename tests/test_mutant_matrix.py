"""The matrix skips a cell only where its column cannot reach the planted bug: the skip logic of
tests/mutant_matrix.py and verify/coverage_lines.py is conservative (no mutant run, seconds)."""

import ast
import json
import textwrap

from verify import coverage_lines, mutant_matrix, mutants

SOURCE = textwrap.dedent(
    '''\
    import math

    LIMIT = 3  # module level: runs at import


    def decorate(name):
        return lambda fn: fn


    @decorate("unused")
    def unused(x, y=LIMIT):
        """Never called by the run."""
        if x > 0:
            return x * 2
        # a comment inside the body
        return y


    def used(x):
        total = 0
        for i in range(x):
            total += math.floor(
                i / 2
            )
        if total < 0:
            total = -total  # never true
        return total
    '''
)


def line_of(text: str) -> int:
    """The line of SOURCE that holds text."""
    return next(n for n, line in enumerate(SOURCE.splitlines(), 1) if text in line)


# what a run that calls used(3) records (its lines, and decorate's at import)
RAN = {line_of("return lambda"), *range(line_of("total = 0"), line_of("i / 2") + 2)}
RAN |= {line_of("if total < 0"), line_of("return total")}


def reached(original: str, ran=RAN) -> bool:
    return coverage_lines.reached(SOURCE, original, ran)[0]


def test_an_edit_on_a_line_that_ran_is_reached():
    assert reached("total += math.floor(")
    assert reached("i / 2")  # the continuation of a statement that ran
    assert reached("return total")


def test_an_edit_in_a_body_that_never_ran_is_not_reached():
    assert not reached("return x * 2")
    assert not reached("if x > 0:")
    assert not reached('"""Never called by the run."""')


def test_an_edit_beside_a_line_that_ran_is_reached():
    # the branch never taken, but its neighbours ran: a deleted or inserted line there counts
    assert reached("total = -total")
    # the first statement of a function that ran: the edit is reached when it is called
    assert reached("    total = 0\n")
    # a line of an unused body next to nothing that ran
    assert not reached("    return y\n")


def test_an_edit_of_what_runs_at_import_is_always_reached():
    for original in ("def unused(x, y=LIMIT):", '@decorate("unused")', "LIMIT = 3", "import math"):
        assert reached(original, ran=set()), original
        assert coverage_lines.watch(SOURCE, original)[0] is None, original
    assert reached("y=LIMIT", ran=set())  # a default value is computed by the def


def test_an_edit_of_no_code_is_always_reached():
    assert reached("# a comment inside the body", ran=set())
    assert reached("\n\n\n@decorate", ran=set())


def test_edit_lines_covers_the_original_text():
    first = line_of("if x > 0")
    assert coverage_lines.edit_lines(SOURCE, "if x > 0:\n        return") == (first, first + 1)
    assert coverage_lines.edit_lines(SOURCE, "return x * 2\n") == (first + 1, first + 1)


def test_the_probes_record_the_statements_that_ran(tmp_path):
    """The probes of coverage_lines.instrument record what RAN above says for the same run (a
    statement over three lines counts on each of its lines), and do not change what runs."""
    watched = set(range(1, len(SOURCE.splitlines()) + 1))
    tree, spans = coverage_lines.instrument(SOURCE, watched)
    fired = set()
    namespace = {coverage_lines.PROBE: fired.add}
    exec(compile(tree, str(tmp_path / "module.py"), "exec"), namespace)
    assert namespace["used"](3) == 1 and namespace["unused"](1) == 2
    assert namespace["unused"].__doc__ == "Never called by the run."  # no probe before it
    ran = set()
    for number in fired:
        ran.update(range(spans[number][0], spans[number][1] + 1))
    statements = {line_of("return x * 2"), line_of("if x > 0"), line_of("return lambda")}
    assert ran == RAN | statements  # unused(1) ran too; its last line did not
    fired.clear()
    namespace["used"](3)
    ran = {line for n in fired for line in range(spans[n][0], spans[n][1] + 1)}
    assert ran == RAN - {line_of("return lambda")}
    for original in ("total += math.floor(", "i / 2", "total = -total", "return total"):
        assert reached(original, ran), original
    for original in ("return x * 2", "if x > 0:", "    return y\n"):
        assert not reached(original, ran), original


def test_only_the_watched_statements_get_a_probe():
    watched = {line_of("return x * 2"), line_of("i / 2")}
    _, spans = coverage_lines.instrument(SOURCE, watched)
    assert spans == [
        (line_of("return x * 2"), line_of("return x * 2")),
        (line_of("total += math"), line_of("i / 2") + 1),
    ]


def fake(file="symbolic.py", original="return x * 2", group="own"):
    return mutants.Mutant("fake", file, original, original + " + 1", group)


def record(file="symbolic.py", ran=RAN, watched=None):
    """A column's record as ran_lines gives it: these lines ran, of every line watched."""
    every = set(range(1, len(SOURCE.splitlines()) + 1))
    return {"lines": {file: set(ran)}, "watched": {file: every if watched is None else watched}}


def test_skip_reason_never_skips_the_control_other_files_or_unknown_lines():
    ran = record()
    assert mutant_matrix.skip_reason(fake(), ran, SOURCE)  # the one cell that may be skipped
    assert mutant_matrix.skip_reason(fake(group="control"), ran, SOURCE) is None
    assert mutant_matrix.skip_reason(fake(file="c_names.txt"), ran, SOURCE) is None
    assert mutant_matrix.skip_reason(fake(file="runtime.py"), record("runtime.py"), SOURCE) is None
    # a line the edit may be reached from was not watched in that run: not skipped
    assert mutant_matrix.skip_reason(fake(), record(watched=RAN), SOURCE) is None
    assert mutant_matrix.skip_reason(fake(), record(file="render.py"), SOURCE) is None
    assert mutant_matrix.skip_reason(fake(), None, SOURCE) is None  # lines not recorded
    assert mutant_matrix.skip_reason(fake(original="absent"), ran, SOURCE) is None
    assert mutant_matrix.skip_reason(fake(original="total += math"), ran, SOURCE) is None
    assert mutant_matrix.skip_reason(None, ran, SOURCE) is None  # the unmutated copy


def test_a_run_that_started_python_is_never_trusted():
    saved = {"lines": {"a.py": [1, 2]}, "watched": {"a.py": [1, 2, 3]}, "python_children": 0}
    assert mutant_matrix.ran_lines(saved) == {
        "lines": {"a.py": {1, 2}},
        "watched": {"a.py": {1, 2, 3}},
    }
    assert mutant_matrix.ran_lines({**saved, "python_children": 1}) is None
    assert mutant_matrix.ran_lines({"lines": {}}) is None
    assert mutant_matrix.ran_lines(None) is None


def test_every_planted_bug_can_be_judged_and_decorator_edits_always_run():
    """The lines of every mutant of verify/mutants.py can be found; one that edits a rule's
    decorator (its pattern) is reached by every run, since the decorator runs at import."""
    for mutant in [*mutants.MUTANTS, mutants.CONTROL]:
        path = mutants.PACKAGE / mutant.file
        if mutant.file.endswith(".py") and mutants.target_problem(mutant) is None:
            coverage_lines.watch(path.read_text(encoding="utf-8"), mutant.original)
    decorator = next(m for m in mutants.MUTANTS if m.original.startswith("@rule("))
    text = (mutants.PACKAGE / decorator.file).read_text(encoding="utf-8")
    assert coverage_lines.watch(text, decorator.original)[0] is None


def test_an_edit_of_the_runtime_is_reached_by_any_use_of_its_cache():
    """The runtime's path depends on its on-disk cache: an edit of it is skipped only in a
    column that called none of the functions that read or write the cache (and ran none of
    the edit's lines); a column that compiled anything runs it."""
    bug = next(m for m in mutants.MUTANTS if m.name == "runtime: cache key ignores the flags")
    text = (mutants.PACKAGE / bug.file).read_text(encoding="utf-8")
    watched = mutant_matrix.watch_lines(bug, text)
    tree = ast.parse(text)
    compile_c = next(n for n in ast.walk(tree) if getattr(n, "name", "") == "compile_c")
    first = compile_c.body[1].lineno  # the statement after the docstring
    assert first in watched
    every = set(range(1, len(text.splitlines()) + 1))

    def skipped(ran):
        run = {"lines": {bug.file: ran}, "watched": {bug.file: every}}
        return mutant_matrix.skip_reason(bug, run, text) is not None

    assert skipped(set())  # a column that never compiled
    assert not skipped({first})  # one that compiled, whether it found the library or not
    assert not coverage_lines.watch(SOURCE, "return x * 2", ("compile_c",))[0]


def test_jobs_start_longest_first():
    jobs = [("a", 5.0), ("b", 50.0), ("c", 1.0), ("d", 20.0)]
    assert mutant_matrix.longest_first(jobs, lambda job: job[1]) == [1, 3, 0, 2]


def fake_pool(seen: list):
    """A stand-in for mutants.run_pool: records the jobs, answers every cell 'not caught'."""

    def run_pool(function, jobs, workers):
        seen.extend(jobs)
        cells = [{letter: (False, 1.0, "") for letter in job[1]} for job in jobs]
        return [{"cells": c, "error": None, "seconds": 0.0, "lines": None} for c in cells]

    return run_pool


def test_the_control_runs_last_the_tests_of_p_that_caught_a_bug(tmp_path, monkeypatch):
    """The unmutated copy runs every column but P; the control runs its other columns with the
    mutants, then, of P, exactly the tests that caught a planted bug (a test that failed in
    set-up counts by its node id), once each; a failure there marks the control caught."""
    caught_by = {0: "tests/test_a.py::t[(x//2)//3] (setup)", 1: "tests/test_b.py::u", 2: ""}

    def run_pool(function, jobs, workers):
        seen.extend(jobs)
        out = []
        for job in jobs:
            number = mutants.MUTANTS.index(job[0]) if job[0] in mutants.MUTANTS else None
            cells = {letter: (False, 1.0, "") for letter in job[1]}
            if "P" in job[1] and caught_by.get(number):
                cells["P"] = (True, 1.0, caught_by[number])
            out.append({"cells": cells, "error": None, "seconds": 0.0, "lines": None})
        return out

    def run_suite(mutant, files, full, skip, stop_first, order=None):
        suites.append((mutant, list(files)))
        failed = any(f.endswith("tests/test_b.py::u") for f in files) and fail_b
        detail = "tests/test_b.py::u" if failed else "every test passed"
        return {"verdict": "caught" if failed else "survived", "detail": detail,
                "nodes": [detail] if failed else [], "durations": {}, "seconds": 2.0}  # fmt: skip

    monkeypatch.setattr(mutants, "run_pool", run_pool)
    monkeypatch.setattr(mutants, "run_suite", run_suite)
    options = type("Options", (), {"cells": str(tmp_path), "full": False, "fresh": True})
    options.skip, options.workers = True, 2
    bugs = mutants.MUTANTS[:3]
    for fail_b in (False, True):
        seen, suites = [], []
        rows = [None, mutants.CONTROL, *bugs]
        results, _ = mutant_matrix.run_rows(rows, "AP", options, [])
        assert [job[1] for job in seen if job[0] is None] == ["A"], seen
        assert [job[1] for job in seen if job[0] is mutants.CONTROL] == ["A"], seen
        wanted = [
            f"{mutant_matrix.REPO}/{n}"
            for n in ("tests/test_a.py::t[(x//2)//3]", "tests/test_b.py::u")
        ]
        assert suites == [(mutants.CONTROL, wanted)]
        assert set(results[0]["cells"]) == {"A"} and set(results[1]["cells"]) == {"A", "P"}
        assert results[1]["cells"]["P"][0] is fail_b


def test_hints_order_p_on_a_fresh_folder_and_are_saved_again(tmp_path):
    """The tests of P that failed first last time are tried first where no saved first catch
    exists (a fresh clone); a saved one wins; the new hints keep only the bugs P caught."""
    caught, missed = mutants.MUTANTS[0], mutants.MUTANTS[1]
    path = tmp_path / "hints.json"
    path.write_text(json.dumps({caught.name: ["tests/test_a.py::t"], "gone": "not a list"}))
    hints = mutant_matrix.read_hints(str(path))
    assert hints == {caught.name: ["tests/test_a.py::t"]}
    assert mutant_matrix.read_hints(str(tmp_path / "absent.json")) == {}
    folder = tmp_path / "cells"
    mutant_matrix.seed_hints(hints, folder, [caught, missed])
    assert mutant_matrix.p_order(caught, folder, "quick")["first"] == ["tests/test_a.py::t"]
    assert mutant_matrix.p_order(missed, folder, "quick")["first"] == []
    mutant_matrix.write_json(mutant_matrix.first_catch_path(folder, caught), ["tests/test_b.py::u"])
    mutant_matrix.seed_hints(hints, folder, [caught])  # a saved first catch is not replaced
    assert mutant_matrix.p_order(caught, folder, "quick")["first"] == ["tests/test_b.py::u"]
    chosen = [(1, caught), (2, missed)]
    results = [{"cells": {"P": (True, 2.0, "x")}}, {"cells": {"P": (False, 9.0, "")}}]
    assert mutant_matrix.new_hints(hints, folder, chosen, results) == {
        caught.name: ["tests/test_b.py::u"]
    }
