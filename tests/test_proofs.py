"""The z3 claims under pytest (claim 8: the proofs say what they claim).

Every claim comes out as expected; the strict rules with a proved claim are exactly the rules
of `SYM`; every rule of `FAST` has a refuted claim; the book's 59 claims are all there; the
z3 model of each op gives the contract's value on the special values; and the numbers the book
quotes from the claims (`book_numbers`, stated as `@@ number` lines under BOOK_NUMBERS=1) agree
with the results and fail on a claim not as expected.

The claims run in this process, once per session. A quick run settles every claim named after
a rule and the book claims marked quick, leaving out six book claims that take z3 seconds each
(bit-vector division by 3, 5 and 7, float associativity, x*(1/x)); `--full` settles all of
them, as `python tests/proofs.py` does.
"""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from book import protocol

if not protocol.full():  # a quick run without z3 skips and says so; a full run fails
    pytest.importorskip("z3", reason="z3-solver is not installed (scripts/setup.sh)")

import proofs  # noqa: E402 - only once z3 is known to be there

from uopc.semantics import wrap32  # noqa: E402
from uopc.symbolic import FAST, SYM  # noqa: E402

# xdist_group: under -n 2 the whole file goes to one worker, so the claims are settled once
pytestmark = [pytest.mark.needs_z3, pytest.mark.layer("proofs"), pytest.mark.xdist_group("proofs")]


@pytest.fixture(scope="module")
def settled():
    """(results, printed lines) of one run over the claims of this run's size."""
    lines = []
    claims = proofs.select(proofs.all_claims(), quick=not protocol.full())
    return proofs.run(claims, out=lines.append), lines


def test_every_claim_as_expected(settled):
    results, lines = settled
    failed = [r.claim.title for r in results if not r.as_expected]
    shown = [line for line in lines if not line.startswith("ok")]  # the failures and notes
    assert results and not failed, f"not as expected: {failed}\n" + "\n".join(shown)


def test_strict_rules_are_the_proved_rules(settled):
    proved, _ = proofs.coverage(settled[0])
    assert proved == {r.name for r in SYM}


def test_every_fast_rule_is_refuted(settled):
    _, refuted = proofs.coverage(settled[0])
    fast = {r.name for r in FAST}
    assert fast <= refuted
    expected_proved = {cl.name for cl in proofs.all_claims() if cl.expect == "proved"}
    assert not fast & expected_proved  # no fast-math rule is ever claimed to be right


def test_rule_claims_are_named_after_rules():
    names = {r.name for r in SYM} | {r.name for r in FAST}
    rule_claims = [cl for cl in proofs.all_claims() if cl.group in proofs.RULE_GROUPS]
    assert {cl.name for cl in rule_claims} == names
    assert all(cl.quick for cl in rule_claims)  # quick runs settle every rule's claims


def test_book_claims_are_the_59():
    book = [cl for cl in proofs.all_claims() if cl.group in proofs.BOOK_GROUPS]
    sizes = [sum(cl.group == group for cl in book) for group in proofs.BOOK_GROUPS]
    assert sizes == [25, 6, 8, 6, 14]  # integer rules, split, other divisors, bucket, float32
    assert [cl.expect for cl in book].count("refuted") == 8
    assert len({cl.title for cl in book}) == 59


def test_counterexamples_confirmed_by_the_contract(settled):
    refuted = [r for r in settled[0] if r.outcome == "refuted"]
    assert refuted and all(r.confirmed for r in refuted)


def test_model_matches_the_contract():
    count, wrong = proofs.check_model()
    assert count > 7000 and not wrong, "\n".join(wrong[:20])


def test_unsettled_is_not_proved():
    # a time limit too short to settle anything: the claim is unsettled, never as expected
    claim = next(cl for cl in proofs.all_claims() if cl.title == "(x//3)//5 -> x//15")
    result = proofs.solve(claim, timeout=0.001)
    assert result.outcome == "unsettled" and not result.as_expected


# ---- the numbers the book quotes (proofs.py states them under BOOK_NUMBERS=1) ---------------


def test_book_numbers_from_the_results(settled):
    results = settled[0]
    numbers = proofs.book_numbers(results, quick=not protocol.full())
    stated = {key: value for key, value, _ in numbers.stated}
    assert not numbers.problems and len(stated) == len(numbers.stated)  # each key once
    claims = [stated[f"claims_{name}"] for name in ("total", "as_expected", "refuted")]
    assert proofs.summary(results)[-1] == "CLAIMS {} {} {}".format(*claims)
    groups = [value for key, value in stated.items() if key.startswith("claims_group_")]
    assert sum(groups) == stated["claims_total"] == len(results)
    assert stated["claims_int"] + stated["claims_float"] == stated["book_claims_total"]
    assert stated["rules_strict_proved"] == stated["rules_strict"] == len(SYM)
    assert stated["rules_fast_refuted"] == stated["rules_fast"] == len(FAST)
    assert stated["float_claim_mul_one"] == "proved"
    assert stated["float_claim_add_zero"] == "refuted at x = -0.0"
    assert all(
        stated[f"fast_claim_{row}"].startswith("refuted at x = ") for row in proofs.FAST_ROWS
    )
    left_out = {cl.title for cl in proofs.all_claims() if not cl.quick}
    rows = [
        row for row, title in proofs.FLOAT_ROWS.items() if protocol.full() or title not in left_out
    ]
    assert {f"float_claim_{row}" for row in rows} <= set(stated)


def test_book_numbers_find_a_claim_not_as_expected(settled):
    results = [
        dataclasses.replace(r, outcome="unsettled") if r.claim.title == "x*1.0 -> x" else r
        for r in settled[0]
    ]
    problems = proofs.book_numbers(results, quick=not protocol.full()).problems
    assert "x*1.0 -> x: unsettled, not as expected" in problems
    assert "the book's claims: 1 not as expected" in problems


def test_states_numbers_under_book_numbers():
    """proofs.py --only one claim, as the build runs it: the `@@ number` lines follow the
    CLAIMS line, and chapter 6's counterexample is the contract's."""
    env = {k: v for k, v in os.environ.items() if k != "UOPC_COUNTS"} | {"BOOK_NUMBERS": "1"}
    claim = "(a*4+b)//4 -> a*1 + b//4, no guard"
    done = subprocess.run(
        [sys.executable, str(Path(proofs.__file__)), "--only", claim],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    shown = [line for line in lines if not line.startswith("@@ number ")]
    assert shown[-1] == "CLAIMS 1 1 1"
    stated = dict(parse_number(line) for line in lines if line.startswith("@@ number "))
    assert stated["claims_total"] == stated["book_claims_refuted"] == 1
    a, b = stated["split_cex_a"], stated["split_cex_b"]
    assert stated["split_cex_left"] == wrap32(a * 4 + b) // 4
    assert stated["split_cex_right"] == wrap32(a + b // 4) != stated["split_cex_left"]
    assert not any(key.startswith("float_claim_") for key in stated)  # its group was not run


def parse_number(line: str) -> tuple:
    """(key, value) of an `@@ number KEY = VALUE  # MEANING` line."""
    key, _, rest = line.removeprefix("@@ number ").partition(" = ")
    value, end = json.JSONDecoder().raw_decode(rest)
    assert rest[end:].startswith("  # ") and rest[end + 4 :].strip(), line
    return key, value
