"""The CLI: JSON contracts, help everywhere, one-line errors with exit status 2."""

import json
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.deal import DEAL_VIEWS, load_deal, seeded_deal
from solver.engine import Game
from solver.moves import Turn
from solver.notation import parse_state
from solver.plan import plan_from_json, plan_to_json, replay
from solver.rules import Rules

runner = CliRunner()


def run(*args):
    result = runner.invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code, out, err, *needles):
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("exhibition: error: "), err
    for needle in needles:
        assert needle in lines[0], lines[0]


def random_game(seed):
    game = Game(seeded_deal(seed))
    rng = random.Random(seed)
    state, turns = game.initial_state(), []
    while not state.is_over:
        take = rng.choice(game.legal_takes(state))
        turn = Turn(take, rng.choice(game.legal_places(game.apply_take(state, take))))
        turns.append(turn)
        state = game.apply_turn(state, turn)
    return game, turns


@pytest.fixture
def files(tmp_path):
    game, turns = random_game(11)
    deal_path = tmp_path / "deal.json"
    deal_path.write_text(json.dumps(game.deal.to_json()))
    plan = plan_to_json(turns, game.layout)
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps(plan))
    return game, turns, deal_path, plan, plan_path, tmp_path


def test_every_command_has_help():
    for name, command in main.commands.items():
        assert command.help, name
        code, out, _ = run(name, "--help")
        assert code == 0 and "--format" in out


def test_deal_json_has_the_start_state():
    code, out, err = run("deal", "--seed", "7", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["deal"] == [c.code for c in seeded_deal(7).cards]
    state, _ = parse_state(data["state"])
    assert state == Game(seeded_deal(7)).initial_state()
    assert data["stock_top"] == seeded_deal(7).cards[18].code
    assert list(data["market"]) == ["OC", "SA", "AF", "AS", "EU", "NA"]


def test_deal_json_reads_back_as_a_deal_file(tmp_path):
    """``exhibition deal --format json > FILE`` makes a deal file the other commands take."""
    code, out, _ = run("deal", "--seed", "7", "--secret-decade", "3", "--format", "json")
    assert code == 0 and set(json.loads(out)) == {"deal", "rules"} | DEAL_VIEWS
    path = tmp_path / "deal.json"
    path.write_text(out)
    assert load_deal(path) == seeded_deal(7, Rules(secret_decade=3))
    code, again, _ = run("deal", "--deal", str(path), "--format", "json")
    assert code == 0 and again == out
    path.write_text(json.dumps({**json.loads(out), "stock": []}))
    assert_one_line_error(*run("deal", "--deal", str(path)), 'unknown key "stock"')


def test_deal_text_and_table(files):
    _, _, deal_path, *_ = files
    for fmt in ("text", "table"):
        code, out, _ = run("deal", "--deal", str(deal_path), "--format", fmt)
        assert code == 0 and "stock top" in out and "OC*" in out


def test_replay_json_matches_the_engine(files):
    game, turns, deal_path, _, plan_path, _ = files
    code, out, err = run("replay", "--deal", str(deal_path), "--plan", str(plan_path), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    expected = replay(game, turns)
    assert data == {"score": expected.score, "breakdown": expected.breakdown.as_dict(), "turns": len(turns)}
    assert sum(data["breakdown"].values()) == data["score"]


def write_plan(tmp_path, moves):
    path = tmp_path / "bad_plan.json"
    path.write_text(json.dumps({"plan": moves}))
    return str(path)


def test_illegal_moves_name_turn_and_rule(tmp_path):
    from tests.test_engine import DEAL

    deal_path = tmp_path / "fixed.json"
    deal_path.write_text(json.dumps(DEAL.to_json()))
    # OC column: 1901SA 1930AF 1950EU; EU column: 1911OC 1912SA 1913AF; AF column: 1905EU 1906NA 1907OC
    cases = [
        ([{"take": "1902OC", "place": "GENERAL:1"}], "turn 1", "not in the OC column"),
        ([{"take": "1950EU", "place": "END"}], "turn 1", "END while GENERAL:1 is legal"),
        ([{"take": "1950EU", "place": "GENERAL:1"}, {"take": "1911OC", "place": "GENERAL:2"}], "turn 2", "ascending years"),
        ([{"take": "1950EU", "place": "GENERAL:6"}, {"take": "1913AF", "place": "GENERAL:5"},
          {"take": "1905EU", "place": "GENERAL:1"}], "turn 3", "different continents"),
        ([{"take": "1950EU", "place": "ERA:2"}, {"take": "1913AF", "place": "ERA:1"}], "turn 2", "ONE ERA"),
        ([{"take": "1930AF", "place": "GENERAL:1", "to": "EU"}], "turn 1", 'no "to"'),
    ]
    for moves, *needles in cases:
        assert_one_line_error(*run("replay", "--deal", str(deal_path), "--plan", write_plan(tmp_path, moves)), *needles)


def test_fourth_depot_card_is_refused(files):
    game, _, deal_path, _, _, tmp_path = files
    state, moves = game.initial_state(), []
    from solver.moves import DEPOT, Place, Turn

    for _ in range(4):
        take = next(t for t in game.legal_takes(state) if not t.card.is_white)
        moves.append({"take": take.card.code, "place": "DEPOT"})
        if len(moves) < 4:
            state = game.apply_turn(state, Turn(take, Place(DEPOT)))
    assert_one_line_error(*run("replay", "--deal", str(deal_path), "--plan", write_plan(tmp_path, moves)),
                          "turn 4", "depot already holds 3")


@pytest.mark.parametrize("content, needle", [
    ("{oops", "malformed JSON"),
    ('{"deal": ["1903XX"]}', "unknown card '1903XX'"),
    ('{"cards": []}', '"deal" list'),
    ('{"deal": ["1903NA", "1903NA"]}', "duplicate"),
])
def test_bad_deal_files(tmp_path, content, needle):
    path = tmp_path / "deal.json"
    path.write_text(content)
    assert_one_line_error(*run("deal", "--deal", str(path)), needle)


@pytest.mark.parametrize("args", [
    ("solve", "--seed", "3", "--svg"), ("solve", "--seed", "3", "--method", "tree", "--tree"),
    ("daily", "--date", "2027-01-01", "--reveal", "--svg"), ("daily", "--archive", "2030-01-01", "2030-01-02", "--out"),
    ("daily", "--archive", "2030-01-01", "2030-01-02", "--solutions"),
])
def test_a_file_to_write_in_a_missing_folder_stops_before_the_work(tmp_path, args):
    """The folder is checked when the options are read: no solve runs (these dates are not
    shipped, so the work would be minutes) and nothing is written."""
    *command, option = args
    target = tmp_path / "missing" / "out.file"
    assert_one_line_error(*run(*command, option, str(target)), option, "there is no folder")
    assert not (tmp_path / "missing").exists()


def test_bad_plan_files_and_options(files):
    _, _, deal_path, _, _, tmp_path = files
    for moves, needle in ((["x"], "turn 1"), ([{"take": "1903NA"}], '"take" and "place"'),
                          ([{"take": "1903NA", "place": "NOWHERE:1"}], "unknown showcase"),
                          ([{"take": "1903NA", "place": "ERA:9"}], "spots 1-4")):
        assert_one_line_error(*run("replay", "--deal", str(deal_path), "--plan", write_plan(tmp_path, moves)), needle)
    assert_one_line_error(*run("deal"), "exactly one of --deal FILE or --seed N")
    assert_one_line_error(*run("deal", "--seed", "abc"), "--seed")
    assert_one_line_error(*run("deal", "--deal", str(tmp_path / "missing.json")), "cannot read deal file")
    assert_one_line_error(*run("nosuchcommand"), "nosuchcommand")


def test_unfinished_plan_is_an_error(files):
    _, _, deal_path, plan, _, tmp_path = files
    assert_one_line_error(*run("replay", "--deal", str(deal_path), "--plan", write_plan(tmp_path, plan["plan"][:2])),
                          "not over")


def test_solve_json_contract_and_engine_replay(tmp_path):
    code, out, err = run("solve", "--seed", "2", "--time-limit", "3", "--quiet", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"score", "bound", "status", "plan", "breakdown", "seconds"}
    assert data["status"] == ("optimal" if data["bound"] == data["score"] else "feasible")
    assert data["bound"] >= data["score"]
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps({"plan": data["plan"]}))
    deal_path = tmp_path / "deal.json"
    deal_path.write_text(json.dumps(seeded_deal(2).to_json()))
    code, out, _ = run("replay", "--deal", str(deal_path), "--plan", str(plan_path), "--format", "json")
    assert json.loads(out)["score"] == data["score"]
    code, out, err = run("place", "--deal", str(deal_path), "--takes", ",".join(m["take"] for m in data["plan"]),
                         "--format", "json")
    assert code == 0, err
    placed = json.loads(out)
    assert set(placed) == {"score", "plan", "breakdown"} and placed["score"] >= data["score"]


def test_solve_by_cells_json_contract(tmp_path):
    """Seed 1 is not proven in 8 s: the cells run and report a plan the engine scores the
    same, under a bound that is never below it."""
    code, out, err = run("solve", "--seed", "1", "--method", "cells", "--time-limit", "8", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"score", "bound", "status", "plan", "breakdown", "seconds"}
    assert data["bound"] >= data["score"] and data["status"] == ("optimal" if data["bound"] == data["score"] else "feasible")
    assert "cell [" in err or "dive" in err  # progress on stderr
    plan = plan_from_json({"plan": data["plan"]}, Game(seeded_deal(1)).layout)
    assert replay(Game(seeded_deal(1)), plan).score == data["score"]


def test_solve_and_place_bad_input(tmp_path):
    assert_one_line_error(*run("solve", "--seed", "1", "--time-limit", "-1"), "--time-limit")
    assert_one_line_error(*run("solve", "--seed", "1", "--time-limit", "nan"), "--time-limit")
    deal_path = tmp_path / "deal.json"
    deal_path.write_text(json.dumps(seeded_deal(2).to_json()))
    assert_one_line_error(*run("place", "--deal", str(deal_path), "--takes", "1997AS,1999EU"), "take 2", "AS column")
    assert_one_line_error(*run("place", "--deal", str(deal_path), "--takes", "19XX"), "--takes")


def test_tree_option_needs_the_tree_method(tmp_path):
    assert_one_line_error(*run("solve", "--seed", "2", "--tree", str(tmp_path / "t.json")), "--tree needs --method tree")


def test_rule_options_override_the_deal_file(tmp_path):
    deal_path = tmp_path / "deal.json"
    data = seeded_deal(2).to_json()
    data["rules"] = {"variations": ["LINKS"], "secret_decade": 3, "depot_full_ends_game": True}
    deal_path.write_text(json.dumps(data))
    code, out, _ = run("deal", "--deal", str(deal_path), "--format", "json")
    assert json.loads(out)["rules"] == {"variations": ["LINKS"], "secret_decade": 3, "depot_full_ends_game": True}
    code, out, _ = run("deal", "--deal", str(deal_path), "--variation", "short_era", "--variation", "ANTIQUITY",
                       "--no-depot-full-ends-game", "--format", "json")
    assert json.loads(out)["rules"] == {"variations": ["SHORT_ERA", "ANTIQUITY"], "secret_decade": 3,
                                        "depot_full_ends_game": False}


def test_solve_under_variant_options_replays_under_the_same_rules(tmp_path):
    code, out, err = run("solve", "--seed", "4", "--variation", "ONE_DECADE", "--secret-decade", "6",
                         "--time-limit", "3", "--quiet", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["breakdown"]["short_era"] == 0 and data["bound"] >= data["score"]
    deal_path = tmp_path / "deal.json"
    deal = seeded_deal(4).to_json()
    deal["rules"] = {"variations": ["ONE_DECADE"], "secret_decade": 6}
    deal_path.write_text(json.dumps(deal))
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps({"plan": data["plan"]}))
    code, out, _ = run("replay", "--deal", str(deal_path), "--plan", str(plan_path), "--format", "json")
    assert code == 0 and json.loads(out)["score"] == data["score"]


@pytest.mark.parametrize("args, needle", [
    (("--variation", "LINKS", "--variation", "SPREAD_THE_YEARS"), "both cover CONTINENT"),
    (("--variation", "NOPE"), "unknown variation 'NOPE' (expected one of SPREAD_THE_YEARS"),
    (("--variation", "GAP"), "base showcase"),
    (("--variation", "LINKS", "--variation", "links"), "named twice"),
    (("--secret-decade", "10"), "--secret-decade"),
])
def test_impossible_rule_options(args, needle):
    assert_one_line_error(*run("solve", "--seed", "1", *args), needle)


def test_the_module_runs_as_the_exhibition_command():
    """``python -m cli.main`` is the installed ``exhibition`` command (it used to do nothing)."""
    done = subprocess.run([sys.executable, "-m", "cli.main", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("exhibition, version")
    done = subprocess.run([sys.executable, "-m", "cli.main", "solve", "--seed", "x"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("exhibition: error: ")
