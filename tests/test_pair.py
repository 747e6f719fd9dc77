"""benchmarks/pair.py: its summary of two arms and its checks of the versions named (no
solving here: timing stays out of the tests)."""

import importlib.util
import math
from contextlib import ExitStack
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("pair", ROOT / "benchmarks" / "pair.py")
pair = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pair)


def result(seconds: float, status: str = "optimal") -> dict:
    return {"score": 2600, "bound": 2600, "status": status, "seconds": seconds}


def test_summary_compares_the_deals_both_arms_proved():
    old = [result(4.0), result(10.0), result(60.0, "feasible"), result(2.0)]
    new = [result(2.0), result(12.0), result(30.0), result(1.0)]
    arms, line = pair.summary(old, new)
    assert arms == [["old", "3/4", "7.00"], ["new", "4/4", "7.00"]]
    # the third deal, open in the old arm, is left out of the sums
    assert line == "deals proven by both: 3; new 15.0 s, old 16.0 s, ratio 0.94, new faster on 2"


def test_summary_of_arms_that_proved_nothing_in_common():
    arms, line = pair.summary([result(60.0, "feasible")], [result(3.0)])
    assert line == "no deal proven by both"
    assert arms[0][2] == f"{math.inf:.2f}"


def test_a_directory_that_is_not_a_checkout_is_refused(tmp_path):
    with ExitStack() as stack, pytest.raises(pair.PairError, match="not a checkout"):
        pair.checkout(str(tmp_path), stack)


def test_an_unknown_revision_is_refused():
    with ExitStack() as stack, pytest.raises(pair.PairError, match="neither a directory nor a git revision"):
        pair.checkout("no-such-revision-anywhere", stack)


def test_the_working_tree_is_used_as_it_is():
    with ExitStack() as stack:
        assert pair.checkout(str(ROOT), stack) == ROOT
