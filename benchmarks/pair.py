"""Two versions of the solver, paired deal by deal: is a change faster?

    python benchmarks/pair.py HEAD .                       # the last commit against the working tree
    python benchmarks/pair.py 5ddf673 HEAD --rules SD4 --seeds 1-12
    python benchmarks/pair.py HEAD /tmp/wt_new --method cells --limit 60

The machine has 2 cores and its pace drifts by the hour (the same code's median over the 30
benchmark deals moved from 3.55 s to 6.11 s between days), so two runs of
``benchmarks/solve.py`` made one after the other mostly measure the drift. Here each deal
is solved by the OLD and the NEW version one right after the other, in fresh processes, the
order alternating from deal to deal, so both arms meet the same load. Every session since
the fortieth compared its changes so, with scratch scripts; this is that script.

OLD and NEW are each a directory holding a checkout of the project (``.`` for the working
tree with its uncommitted changes) or a git revision, checked out for the run in a
temporary worktree and removed afterwards. Each deal runs
``run_method`` of that version's own ``benchmarks/solve.py`` (``--method``: cells, cpsat,
cpsat-w8, tree, baseline) under ``--rules`` (``base``, or the notation's rules as in
``solve.py --variants --sets``: ``SD4``, ``LINKS+SHORT_ERA+ANTIQUITY``...).

Prints a table of the deals (each arm's score, status and seconds to proof), then per arm
how many were proven and the median time (an unproven deal counts as ``inf``), and over the
deals both proved the sums of their times, their ratio NEW / OLD and on how many NEW was
faster. The ratio is what a change is judged by; the spread between two rounds of the same
code is a few percent over 30 deals and 10-50% on single deals (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import statistics
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tabulate import tabulate  # noqa: E402

from puzzles.batch import parse_seeds  # noqa: E402
from solver.errors import ExhibitionError  # noqa: E402
from solver.notation import parse_rules  # noqa: E402

# the methods of this checkout's ``benchmarks/solve.py`` (``run_method``), which each version runs
_spec = importlib.util.spec_from_file_location("bench_solve", REPO / "benchmarks" / "solve.py")
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
METHODS = _bench.METHODS

# One deal solved by one version, in a process of its own: the version's directory first on
# the path, so that its ``solver`` is the one imported, not the installed project's.
CHILD = """
import importlib.util, json, sys
version, rules_text, seed, limit, method = sys.argv[1:]
sys.path.insert(0, version)
spec = importlib.util.spec_from_file_location("version_bench", version + "/benchmarks/solve.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
from solver.deal import seeded_deal
from solver.engine import Game
from solver.notation import parse_rules
found = bench.run_method(method, Game(seeded_deal(int(seed), parse_rules(rules_text))), float(limit))
print(json.dumps({"score": found.score, "bound": found.bound, "status": found.status, "seconds": found.seconds}))
"""


class PairError(Exception):
    """A bad argument: reported in one line, exit 2."""


def checkout(version: str, stack: ExitStack) -> Path:
    """The directory of ``version``: itself if it is a directory holding the project, else a
    temporary worktree of the git revision, removed when ``stack`` closes."""
    path = Path(version)
    if path.is_dir():
        if not (path / "solver").is_dir() or not (path / "benchmarks" / "solve.py").is_file():
            raise PairError(f"{version}: a directory, but not a checkout of the project (no solver/ or benchmarks/solve.py)")
        return path.resolve()
    found = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet", f"{version}^{{commit}}"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        raise PairError(f"{version}: neither a directory nor a git revision of {REPO}")
    where = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pair-"))) / "checkout"
    added = subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--quiet", "--detach", str(where),
                            found.stdout.strip()], capture_output=True, text=True)
    if added.returncode != 0:
        raise PairError(f"{version}: git worktree add failed: {added.stderr.strip()}")
    stack.callback(subprocess.run, ["git", "-C", str(REPO), "worktree", "remove", "--force", str(where)], check=False)
    return where


def solve_in(version: Path, rules: str, seed: int, limit: float, method: str) -> dict:
    """One deal solved by the version in a fresh process: score, bound, status, seconds."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(version), rules, str(seed), str(limit), method],
                          capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise PairError(f"{version}, seed {seed}: the solve failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def seconds_to_proof(result: dict) -> float:
    return result["seconds"] if result["status"] == "optimal" else math.inf


def summary(old: list[dict], new: list[dict]) -> tuple[list[list], str]:
    """Per arm: proven and median seconds to proof; and the line that compares the deals
    both proved (sums, ratio NEW / OLD, how often NEW was faster)."""
    rows = []
    for name, results in (("old", old), ("new", new)):
        times = [seconds_to_proof(r) for r in results]
        rows.append([name, f"{sum(math.isfinite(t) for t in times)}/{len(times)}", f"{statistics.median(times):.2f}"])
    both = [(seconds_to_proof(a), seconds_to_proof(b)) for a, b in zip(old, new)
            if math.isfinite(seconds_to_proof(a)) and math.isfinite(seconds_to_proof(b))]
    if not both:
        return rows, "no deal proven by both"
    old_sum, new_sum = sum(a for a, _ in both), sum(b for _, b in both)
    faster = sum(b < a for a, b in both)
    return rows, (f"deals proven by both: {len(both)}; new {new_sum:.1f} s, old {old_sum:.1f} s, "
                  f"ratio {new_sum / old_sum:.2f}, new faster on {faster}")


def run(versions: dict[str, Path], seeds: list[int], args: argparse.Namespace) -> None:
    """Each deal by both versions, the order alternating; then the tables."""
    results: dict[str, list[dict]] = {"old": [], "new": []}
    rows = []
    for k, seed in enumerate(seeds):
        order = ("new", "old") if k % 2 == 0 else ("old", "new")
        for arm in order:
            result = solve_in(versions[arm], args.rules, seed, args.limit, args.method)
            results[arm].append(result)
            print(f"seed {seed} {arm}: {result['score']}/{result['bound']} {result['status']} {result['seconds']:.1f}s",
                  file=sys.stderr, flush=True)
        rows.append([seed] + [f"{r['score']} {r['status']} {r['seconds']:.1f}" for r in (results["old"][-1], results["new"][-1])])
    print(f"{args.method}, rules {args.rules}, {args.limit:g} s a solve; old {args.old}, new {args.new}\n")
    print(tabulate(rows, headers=["seed", "old", "new"], tablefmt="github"))
    print()
    arms, line = summary(results["old"], results["new"])
    print(tabulate(arms, headers=["arm", "proven", "median s"], tablefmt="github"))
    print(f"\n{line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the version before: a directory or a git revision")
    parser.add_argument("new", help="the version after (. : the working tree)")
    parser.add_argument("--rules", default="base", help="base (default), or e.g. SD4, LINKS+SHORT_ERA+ANTIQUITY")
    parser.add_argument("--seeds", default="1-30", help="the seeded deals, e.g. 1-30 (default) or 1-5,9")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve (default 60)")
    parser.add_argument("--method", choices=METHODS, default="cells")
    args = parser.parse_args()
    try:
        seeds = parse_seeds(args.seeds)
        try:
            parse_rules(args.rules)
        except ExhibitionError as exc:
            raise PairError(f"--rules: {exc}") from None
        if not 0 < args.limit < math.inf:
            raise PairError(f"--limit: {args.limit:g} is not a positive number of seconds")
        with ExitStack() as stack:
            versions = {"old": checkout(args.old, stack), "new": checkout(args.new, stack)}
            run(versions, seeds, args)
    except (PairError, ExhibitionError) as exc:
        print(f"pair.py: error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
