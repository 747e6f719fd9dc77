"""``exhibition batch``: the distribution of optimal solo scores over many seeded deals,
solved on Dask distributed (``puzzles/batch.py``)."""

from __future__ import annotations

import json
import sys
import time

import click
from tabulate import tabulate

from cli.common import RuleOverrides, emit_json, format_option, positive_seconds, rule_options
from puzzles.batch import histogram, parse_seeds, run_batch, summary
from puzzles.daily import PROVING_METHODS
from solver.rules import Rules


class ProgressBar:
    """A one-line progress bar on stderr (never stdout), redrawn as results arrive."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self.started = time.perf_counter()

    def step(self, result: dict) -> None:
        self.done += 1
        if not self.enabled:
            return
        filled = round(30 * self.done / self.total)
        elapsed = time.perf_counter() - self.started
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total}  "
                         f"seed {result['seed']}: {result['score']} {result['status']}  {elapsed:.0f}s ")
        if self.done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


@click.command(name="batch")
@click.option("--seeds", "seeds_text", required=True, help="Seeds to solve: N-M, N, or a comma-separated mix.")
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True,
              help="Dask worker processes of the local cluster (ignored with --scheduler).")
@click.option("--scheduler", help="Address of a running Dask scheduler (tcp://host:8786) instead of a local cluster.")
@click.option("--time-limit", type=float, default=60.0, show_default=True, callback=positive_seconds,
              help="Seconds per deal.")
@click.option("--cp-workers", type=click.IntRange(1, 64), default=8, show_default=True,
              help="CP-SAT workers inside each task (the proof by cells refutes with several).")
@click.option("--method", type=click.Choice(PROVING_METHODS), default="cells", show_default=True,
              help="cells: the proof by cells, as the solve command's default; cpsat: one CP-SAT model of "
                   "the whole game.")
@click.option("--quiet", is_flag=True, help="No progress bar on stderr.")
@rule_options
@format_option()
def batch_command(seeds_text: str, workers: int, scheduler: str | None, time_limit: float, cp_workers: int,
                  method: str, quiet: bool, overrides: RuleOverrides, fmt: str) -> None:
    """Solve many seeded deals on Dask; report the distribution of optimal solo scores."""
    seeds = parse_seeds(seeds_text)
    rules = overrides.apply(Rules())
    bar = ProgressBar(len(seeds), not quiet)

    def arrived(result: dict) -> None:
        bar.step(result)
        if fmt == "json":
            click.echo(json.dumps(result))

    started = time.perf_counter()
    results = run_batch(seeds, rules, time_limit, workers, scheduler, cp_workers, arrived, method)
    stats = summary(results)
    stats["seconds"] = round(time.perf_counter() - started, 2)
    if fmt == "json":
        emit_json({"summary": stats})
        return
    rows = [[r["seed"], r["score"], r["bound"], r["status"], r["seconds"]] for r in results]
    if len(rows) <= 50:
        click.echo(tabulate(rows, headers=["seed", "score", "bound", "status", "seconds"],
                            tablefmt="github" if fmt == "table" else "simple"))
        click.echo()
    quantiles = "  ".join(f"{k} {v}" for k, v in stats["quantiles"].items())
    click.echo(f"{stats['deals']} deals, {stats['proven']} proven optimal, mean {stats['mean']}, "
               f"{stats['above_2025']} above 2025, {stats['seconds']} s")
    click.echo(f"quantiles: {quantiles}")
    click.echo("\n".join(histogram([r["score"] for r in results])))
