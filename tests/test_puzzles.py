"""Daily puzzles: IDs round-trip and pin the deal, dates give the same puzzle forever
(golden), answers are checked by the engine, the terminal game runs from a script, the
SVG is well-formed, batch runs report a distribution."""

import datetime as dt
import json
import multiprocessing
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import replace

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from cli.main import main
from cli.play import BackgroundOptimum, Session
from cli.svg import hall_svg
from puzzles.batch import histogram, parse_seeds, summary
from puzzles.daily import (SOLVED_FILE, Signals, Solved, archive_lines, choose, known_line, load_solved, mode_of_day,
                           optimal_first_takes, plan_turns, proven_line, read_archive, rules_of_day, solved_lines)
from puzzles.ids import Puzzle, format_id, parse_id
from solver.deal import Deal, seeded_deal
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.greedy import greedy_plan
from solver.notation import parse_rules
from solver.plan import plan_to_json, replay
from solver.rules import Rules

runner = CliRunner()

# Selection rule v1: these dates must give these puzzles on every machine, forever.
GOLDEN = {
    "2026-11-29": "x20.blind.base.62F35F93S59S68E25E12A84F42N46S33N30S87S28E19F98N48F36E97A05A92O29N72O99E95A85O65O57F"
                  "73O09N81N18E03N14N50S08N47A",
    "2026-12-25": "x20.open.base.36E31S64A67F12A24F88S09N86E38F93S81N72O05A30S16S53O11S23A51S71N21A56O41A50S03N74F37N85O"
                  "18E92O83O80A28E20O32O58A",
    "2030-06-15": "x20.open.base.56O81N62F53O02N25E97A63F27N52F08N39E91E58A77S10F04E95A03N59S45W37N74F16S14N47A98N30S29N"
                  "57F50S31S68EEIN64A33N01O",
}


def run(*args, input=None):
    result = runner.invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63), rules=st.sampled_from(["base", "LINKS+SD4", "ANTIQUITY+DFE", "SHORT_ERA"]),
       mode=st.sampled_from(["open", "blind"]))
def test_ids_round_trip_and_spell_the_deal(seed, rules, mode):
    deal = seeded_deal(seed, parse_rules(rules))
    puzzle = Puzzle(Deal(deal.cards[:37], deal.rules), mode)
    again = parse_id(format_id(puzzle))
    assert again == puzzle and format_id(again) == format_id(puzzle)


@pytest.mark.parametrize("text, needle", [
    ("x20.open.base", "4 fields"),
    ("x21.open.base." + "00O" * 37, "version"),
    ("x20.easy.base." + "00O" * 37, "mode"),
    ("x20.open.NOPE." + "00O" * 37, "rules"),
    ("x20.open.base.00O", "characters"),
    ("x20.open.base." + "00Q" * 37, "card 1"),
    ("x20.open.base." + "00O" * 37, "puzzle ID cards"),  # 37 times the same card
])
def test_bad_ids_name_the_bad_part(text, needle):
    with pytest.raises(ExhibitionError, match=needle):
        parse_id(text)


@pytest.mark.parametrize("date", sorted(GOLDEN))
def test_golden_dates_give_the_same_puzzle(date):
    puzzle, greedy, heuristic = choose(dt.date.fromisoformat(date))
    assert puzzle.id == GOLDEN[date]
    assert heuristic > 2025 and greedy <= heuristic - 800


def test_rules_and_modes_of_days():
    days = [dt.date(2027, 1, 1) + dt.timedelta(days=k) for k in range(140)]
    rules = [rules_of_day(d) for d in days]
    assert sum(r.variations == frozenset() and r.secret_decade is None for r in rules) > 70  # base most days
    assert any(r.variations for r in rules) and any(r.secret_decade is not None for r in rules)
    assert {mode_of_day(d) for d in days} == {"open", "blind"}
    assert all(mode_of_day(d) == "blind" for d in days if d.weekday() == 6)


def test_shipped_solved_puzzles_replay_to_their_targets():
    solved = load_solved()
    assert solved, "the project ships solved daily puzzles"
    for entry in solved.values():
        game = Game(entry.puzzle.deal)
        assert replay(game, plan_turns(entry)).score == entry.target
        assert entry.bound >= entry.target
        if entry.date in GOLDEN:
            assert entry.id == GOLDEN[entry.date]


def test_shipped_dates_are_consecutive_proven_and_archived():
    """What the README promises of the shipped files: one puzzle a day with no gap, every
    target proven (bound = target), and ``archive.txt`` written from the solved file as it
    stands (a date proven later must not keep its "not proven" comment)."""
    entries = sorted(load_solved().values(), key=lambda e: e.date)
    days = [dt.date.fromisoformat(e.date) for e in entries]
    assert [(b - a).days for a, b in zip(days, days[1:])] == [1] * (len(days) - 1)
    assert [e.date for e in entries if e.status != "optimal" or e.bound != e.target] == []
    shipped = (SOLVED_FILE.parent / "archive.txt").read_text().splitlines()
    assert shipped == archive_lines(entries)


def test_archive_format_round_trips():
    entries = list(load_solved().values())
    text = "\n".join(archive_lines(entries)) + "\n"
    assert [p.id for p in read_archive(text)] == [e.id for e in entries]
    with pytest.raises(ExhibitionError, match="archive line 2"):
        read_archive("# comment\nnot-an-id\n")


def _a_solved_date():
    entry = next(iter(load_solved().values()))
    return entry


def test_daily_json_contract_and_reveal():
    entry = _a_solved_date()
    code, out, err = run("daily", "--date", entry.date, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert {"date", "id", "deal", "target", "difficulty", "mode"} <= set(data) and "plan" not in data
    assert data["id"] == entry.id and data["target"] == entry.target
    code, out, _ = run("daily", "--date", entry.date, "--reveal", "--format", "json")
    assert json.loads(out)["plan"] == entry.plan


def test_check_scores_a_plan_against_the_target(tmp_path):
    entry = _a_solved_date()
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps({"plan": entry.plan}))
    svg_path = tmp_path / "hall.svg"
    code, out, err = run("check", "--puzzle", entry.date, "--plan", str(plan_path), "--svg", str(svg_path),
                         "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["score"] == data["target"] == entry.target and data["optimal"] == (entry.status == "optimal")
    ElementTree.parse(svg_path)  # well-formed
    game = Game(entry.puzzle.deal)
    greedy = plan_to_json(greedy_plan(game), game.layout)
    plan_path.write_text(json.dumps(greedy))
    code, out, _ = run("check", "--puzzle", entry.id, "--plan", str(plan_path), "--format", "json")
    data = json.loads(out)
    assert data["score"] < data["target"] and not data["optimal"] and data["percent"] < 100


def test_prove_open_proves_an_entry_from_its_line_and_keeps_the_others(tmp_path):
    """An optimal entry made to look open (its bound raised): ``daily --prove-open`` proves
    it again from its line and rewrites only that entry; a proven entry is not touched."""
    by_date = {e.date: e for e in load_solved().values()}
    easy, other = by_date["2026-12-03"], by_date["2026-12-04"]  # the cells prove 2026-12-03 within a second
    assert easy.status == other.status == "optimal"
    opened = replace(easy, status="feasible", bound=easy.bound + 100)
    path = tmp_path / "solved.jsonl"
    path.write_text(solved_lines([opened, other]))
    code, _, err = run("daily", "--prove-open", "--solutions", str(path), "--time-limit", "8", "--workers", "2")
    assert code == 0, err
    assert opened.date in err  # a progress line per worked entry
    after = load_solved(path)
    proven = after[easy.id]
    assert proven.status == "optimal" and proven.target == proven.bound == easy.target
    assert replay(Game(easy.puzzle.deal), plan_turns(proven)).score == easy.target
    assert proven.signals.optimal_first_takes in (None, easy.signals.optimal_first_takes)  # counted if time was left
    assert after[other.id] == other


def test_count_open_counts_an_unknown_first_take_count_and_keeps_the_others(tmp_path):
    """2027-08-03 (all three first takes reach its 2494: a dive after each finds it) with its
    count made unknown: ``daily --count-open`` counts it again and rewrites that entry only;
    a counted entry is not touched, and with --prove-open the flag is refused."""
    by_date = {e.date: e for e in load_solved().values()}
    counted, other = by_date["2027-08-03"], by_date["2026-12-06"]
    assert counted.signals.optimal_first_takes == 3 and other.signals.optimal_first_takes is not None
    unknown = replace(counted, signals=replace(counted.signals, optimal_first_takes=None))
    path = tmp_path / "solved.jsonl"
    path.write_text(solved_lines([unknown, other]))
    code, _, err = run("daily", "--count-open", "--solutions", str(path), "--time-limit", "60", "--workers", "2")
    assert code == 0, err
    assert f"{counted.date}  optimal first takes: 3" in err
    assert load_solved(path) == {counted.id: counted, other.id: other}
    code, out, err = run("daily", "--count-open", "--prove-open", "--solutions", str(path))
    assert code == 2 and out == "" and "--prove-open" in err and len(err.strip().splitlines()) == 1


def test_since_leaves_the_earlier_entries_alone(tmp_path):
    """``--since`` a day after the only entry with an unknown count: nothing is worked on
    and the file is untouched; without a maintenance flag, or with a bad date, one line."""
    by_date = {e.date: e for e in load_solved().values()}
    counted = by_date["2027-08-03"]
    unknown = replace(counted, signals=replace(counted.signals, optimal_first_takes=None))
    path = tmp_path / "solved.jsonl"
    path.write_text(solved_lines([unknown]))
    before = path.read_text()
    code, _, err = run("daily", "--count-open", "--since", "2027-08-04", "--solutions", str(path), "--time-limit", "60")
    assert code == 0 and err == "" and path.read_text() == before
    for args, needle in ((["--since", "2027-08-04"], "--count-open"),
                         (["--count-open", "--since", "2027-8-4", "--solutions", str(path)], "2027-8-4")):
        code, out, err = run("daily", *args)
        assert code == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("text", ["2027-02-30", "2027-13-01", "27-01-01", "tomorrow"])
def test_a_date_that_is_not_on_the_calendar_is_one_line_naming_it(text):
    code, out, err = run("daily", "--date", text)
    assert code == 2 and out == "" and f"date '{text}' is not a calendar date" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("text, needle", [("{not json", "line 1"), ('{"id": "x"}', "line 1")])
def test_a_bad_solved_file_is_one_line_naming_it(tmp_path, text, needle):
    path = tmp_path / "solved.jsonl"
    path.write_text(text + "\n")
    code, out, err = run("daily", "--prove-open", "--solutions", str(path))
    assert code == 2 and out == "" and needle in err and str(path) in err and len(err.strip().splitlines()) == 1


def test_an_unwritable_output_is_one_line_naming_it(tmp_path):
    entry = _a_solved_date()
    target = tmp_path / "missing" / "archive.txt"
    code, out, err = run("daily", "--archive", entry.date, entry.date, "--out", str(target), "--quiet")
    assert code == 2 and out == "" and str(target) in err and len(err.strip().splitlines()) == 1
    assert not target.parent.exists()


def test_check_names_the_illegal_turn(tmp_path):
    entry = _a_solved_date()
    bad = list(entry.plan)
    bad[1] = dict(bad[1], take=bad[0]["take"])  # the first card taken twice
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps({"plan": bad}))
    code, out, err = run("check", "--puzzle", entry.id, "--plan", str(plan_path))
    assert code == 2 and out == "" and "turn 2" in err and len(err.strip().splitlines()) == 1


def test_play_from_a_script_reaches_the_end_and_undo_works():
    game = Game(seeded_deal(5))
    moves = []
    for turn in greedy_plan(game):
        take, place = turn.take, turn.place
        moves.append(take.card.code + (f">{take.to.name}" if take.to is not None else ""))
        target = place.name(game.layout)
        if place.declare is not None:
            d = place.declare
            target += f"={d.continent.name}{d.year if d.year is not None else ''}"
        moves.append(target)
    script = "\n".join(["help", "nonsense", moves[0], "undo", *moves]) + "\n"
    code, out, err = run("play", "--seed", "5", "--time-limit", "2", "--format", "json", input=script)
    assert code == 0, err
    assert "not legal" in out
    assert "e2=AF1950 for Einstein" in out and "``" not in out  # the notation, as a terminal shows it
    result = json.loads(out.strip().splitlines()[-1])
    assert result["score"] == replay(game, greedy_plan(game)).score and result["optimum"] >= result["score"]


def test_play_hints_on_a_daily_puzzles_line_are_exact_at_its_target():
    entry = next(e for e in load_solved().values() if e.status == "optimal" and e.puzzle.mode == "open")
    first = plan_turns(entry)[0]
    take = first.take.card.code + (f">{first.take.to.name}" if first.take.to is not None else "")
    code, out, err = run("play", "--date", entry.date, "--hint-budget", "0.5", input=f"{take}\nhint\nquit\n")
    assert code == 0, err
    best = next(line for line in out.splitlines() if line.strip().startswith("1. "))
    assert best.split()[1] == first.place.name(Game(entry.puzzle.deal).layout) and f"value {entry.target} (exact)" in best


def test_play_proves_a_deal_beside_the_game_and_its_hints_then_value_the_line_exactly():
    """``play --seed``: the deal's optimum is proven in a process of its own while the game
    is played; once it is, a known-deal hint at the start values the line's first take at
    the optimum, exactly (a 0.5 s hint alone would solve each take on a share of it)."""
    game = Game(seeded_deal(7))  # proven at 2888 in about a second (benchmarks/README.md)
    optimum = BackgroundOptimum(game, 30)
    try:
        found = optimum.result()
        assert found.status == "optimal" and found.score == 2888 and replay(game, found.line[0]).score == 2888
        shown = []
        Session(game, False, shown.append, optimum=optimum).hint(0.5)
        assert "value 2888 (exact)" in shown[0] and found.line[0][0].take.card.code in shown[0]
        assert found.at_least(2900).score == 2900 and found.at_least(100).score == 2888
    finally:
        optimum.stop()


def test_quitting_a_game_stops_the_proof_beside_it_at_once():
    started = time.perf_counter()
    optimum = BackgroundOptimum(Game(seeded_deal(10)), 60)  # open after 60 s in every benchmark run
    optimum.stop()
    assert time.perf_counter() - started < 5 and not multiprocessing.active_children()


def test_a_solved_puzzles_deal_finds_its_proven_line_in_either_mode_and_only_under_its_rules():
    entry = next(e for e in load_solved().values() if e.status == "optimal" and e.puzzle.deal.rules == Rules())
    line, target = proven_line(entry.puzzle.deal)
    assert target == entry.target and replay(Game(entry.puzzle.deal), line).score == target
    assert proven_line(replace(entry.puzzle.deal, rules=Rules(secret_decade=3))) is None
    assert proven_line(entry.puzzle.deal, {}) is None


def test_svg_shows_every_hall_card():
    game = Game(seeded_deal(5))
    outcome = replay(game, greedy_plan(game))
    text = hall_svg(game, outcome.final, outcome.breakdown, "a <test> & more")
    root = ElementTree.fromstring(text)
    assert root.tag.endswith("svg")
    for c in outcome.final.board.hall_cards:
        assert (str(c.year) if c.year else "EIN") in text


def test_seed_ranges_and_the_distribution_report():
    assert parse_seeds("1-3,7") == [1, 2, 3, 7]
    for bad in ("1-", "3-1", "x", "1-1000000000000", "1-600000,1-600000"):
        with pytest.raises(ExhibitionError):
            parse_seeds(bad)
    results = [{"seed": s, "score": v, "status": "optimal"} for s, v in enumerate([2000, 2100, 2694, 2990])]
    stats = summary(results)
    assert stats["mean"] == 2446 and stats["quantiles"]["50%"] == 2100 and stats["above_2025"] == 3
    assert len(histogram([r["score"] for r in results])) == 10


def test_batch_runs_on_a_local_dask_cluster():
    code, out, err = run("batch", "--seeds", "1-2", "--time-limit", "1", "--workers", "1", "--quiet",
                         "--format", "json")
    assert code == 0, err
    lines = [json.loads(line) for line in out.strip().splitlines()]
    assert sorted(r["seed"] for r in lines[:-1]) == [1, 2]
    assert lines[-1]["summary"]["deals"] == 2


def test_a_batch_proves_by_cells_and_takes_the_whole_game_model_on_request():
    """Deal 23's optimum, 2692, is proven by cells in about a second (benchmarks/solve.py)."""
    code, out, err = run("batch", "--seeds", "23", "--time-limit", "30", "--workers", "1", "--quiet",
                         "--format", "json")
    assert code == 0, err
    result = json.loads(out.strip().splitlines()[0])
    assert (result["score"], result["bound"], result["status"]) == (2692, 2692, "optimal")
    code, out, err = run("batch", "--seeds", "23", "--time-limit", "1", "--workers", "1", "--method", "cpsat",
                         "--cp-workers", "1", "--quiet", "--format", "json")
    assert code == 0, err
    result = json.loads(out.strip().splitlines()[0])
    assert result["score"] <= 2692 <= result["bound"]


def test_signals_grade_by_documented_points():
    base = dict(greedy=900, heuristic=2500, target=2500, optimal_first_takes=2, depot=False, white=False, blind=False)
    assert Signals(**base).grade == "easy"
    assert Signals(**{**base, "target": 2600}).grade == "medium"
    assert Signals(**{**base, "target": 2800, "optimal_first_takes": 1}).grade == "expert"
    assert Solved("x", None, 1, 1, "optimal", [], Signals(**base)).difficulty == "easy"


def test_optimal_first_takes_count_the_takes_that_reach_the_target_and_not_an_unsettled_one():
    """The optimal line's own first take counts without a question; every other one is asked
    for the target, and one answer left open (None) leaves the count unknown."""
    entry = next(e for e in load_solved().values() if e.date == "2026-11-29")
    game, solution = known_line(entry)
    takes = game.legal_takes(game.initial_state())
    others = [take for take in takes if take != solution.plan[0].take]
    asked = []

    def reaches(answers):
        def answer(g, take, goal, seconds, workers):
            asked.append((take, goal))
            return answers[others.index(take)]
        return answer

    far = time.perf_counter() + 600
    assert optimal_first_takes(game, solution, far, 2, reaches([True] + [False] * (len(others) - 1))) == 2
    assert asked == [(take, entry.target) for take in others]
    assert optimal_first_takes(game, solution, far, 2, reaches([False] * len(others))) == 1
    assert optimal_first_takes(game, solution, far, 2, reaches([None] * len(others))) is None
    assert optimal_first_takes(game, solution, time.perf_counter(), 2, reaches([True] * len(others))) is None


@pytest.mark.slow
def test_selection_v1_reproduces_every_shipped_date():
    """The frozen selection rule chooses each shipped date's puzzle again, with the same
    screening signals (the warm start's first version must not drift)."""
    for entry in load_solved().values():
        puzzle, greedy, heuristic = choose(dt.date.fromisoformat(entry.date))
        assert (puzzle.id, greedy, heuristic) == (entry.id, entry.signals.greedy, entry.signals.heuristic), entry.date
