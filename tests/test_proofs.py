"""The z3 claims under pytest (claim 8: the proofs say what they claim).

Every claim comes out as expected; the strict rules with a proved claim are exactly the rules
of `SYM`; every rule of `FAST` has a refuted claim; the book's 59 claims are all there; and the
z3 model of each op gives the contract's value on the special values.

The claims run in this process, once per session. A quick run settles every claim named after
a rule and the book claims marked quick, leaving out six book claims that take z3 seconds each
(bit-vector division by 3, 5 and 7, float associativity, x*(1/x)); `--full` settles all of
them, as `python tests/proofs.py` does.
"""

import counting
import pytest

if not counting.full():  # a quick run without z3 skips and says so; a full run fails
    pytest.importorskip("z3", reason="z3-solver is not installed (scripts/setup.sh)")

import proofs  # noqa: E402 - only once z3 is known to be there

from uopc.symbolic import FAST, SYM  # noqa: E402

pytestmark = [pytest.mark.needs_z3, pytest.mark.layer("proofs")]


@pytest.fixture(scope="module")
def settled():
    """(results, printed lines) of one run over the claims of this run's size."""
    lines = []
    claims = proofs.select(proofs.all_claims(), quick=not counting.full())
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
