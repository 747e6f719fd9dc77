"""Hints against the engine: known-mode values equal an exhaustive search late in a game,
hidden-mode estimates are reproducible, unreachable states are refused, and the CLI
contracts of ``hint`` and ``review``."""

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from click.testing import CliRunner

from cli.hinting import grade
from cli.main import main
from puzzles.daily import load_solved, plan_turns
from solver.deck import default_deck
from solver.engine import Game
from solver.hints import (RACE_MARGIN, _contenders, _most_played, _sample_values, _sampled_option, hint_hidden,
                          hint_known, line_move, options_at, same_option, sampled_game)
from solver.notation import format_state
from solver.plan import plan_to_json
from solver.errors import ExhibitionError
from solver.rules import Rules, showcase_of
from solver.solve import solve
from solver.state import Placed
from solver.validate import check_against_deal, check_solo_state, hidden_stock
from tests.helpers import brute_force_from, endgames, holding_a_white_card

runner = CliRunner()


def run(*args):
    result = runner.invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("rules", ["base", "LINKS+SHORT_ERA", "SD4"])
def test_known_values_are_exact_late_in_a_game(rules):
    for game, state in endgames(rules, 2):
        found = hint_known(game, state, budget=20)
        assert {str(o.move.target if hasattr(o.move, "target") else o.move) for o in found.options} == \
            {str(m.target if hasattr(m, "target") else m) for m in options_at(game, state)}
        for option in found.options:
            after = game.apply_take(state, option.move) if found.decision == "take" else game.apply_place(state, option.move)
            assert option.exact and option.value == brute_force_from(game, after)
        assert found.best.value == brute_force_from(game, state)
        assert found.best.loss == 0 and all(o.loss >= 0 for o in found.options)
        assert [o.value for o in found.options] == sorted((o.value for o in found.options), reverse=True)


def test_known_hints_value_a_proven_lines_move_at_its_score_and_bound_every_option_by_it():
    entry = next(e for e in load_solved().values() if e.status == "optimal")
    game, line = Game(entry.puzzle.deal), plan_turns(entry)
    optimal_line = (line, entry.target)
    on = game.apply_take(game.apply_turn(game.initial_state(), line[0]), line[1].take)  # placing turn 2's card
    found = hint_known(game, on, budget=0.5, optimal_line=optimal_line)
    assert same_option(found.best.move, line[1].place) and found.best.value == entry.target and found.best.exact
    assert len(found.options) == len(options_at(game, on)) and all(o.bound <= entry.target for o in found.options)
    off = game.apply_take(game.initial_state(), next(t for t in game.legal_takes(game.initial_state()) if t != line[0].take))
    assert line_move(game, line, off) is None
    found = hint_known(game, off, budget=0.5, optimal_line=optimal_line)
    assert all(o.value <= o.bound <= entry.target for o in found.options)


def test_known_hints_solve_a_later_position_first_and_bound_every_option_by_it(monkeypatch):
    """Past the start, the position's own solve comes first, with ``POSITION_SHARE`` of the
    budget (less what the other options keep); its move is the best option, exact, and its
    bound holds for every option. With no time for it beside ``OPTION_SECONDS`` of solve for
    every other option, it does not run."""
    import solver.hints

    game, state = endgames("base", 1)[0]
    asked = []

    def solving(g, **kwargs):
        asked.append(kwargs)
        return solve(g, **kwargs)

    monkeypatch.setattr(solver.hints, "solve", solving)
    found = hint_known(game, state, budget=10)
    assert asked[0]["state"] == state and "pinned" not in asked[0]
    kept = (len(options_at(game, state)) - 1) * (solver.hints.OPTION_SECONDS + solver.hints.SOLVE_OVERHEAD)
    share = min(solver.hints.POSITION_SHARE * 10, 10 - kept) - solver.hints.SOLVE_OVERHEAD
    assert asked[0]["time_limit"] == pytest.approx(share) and share > 1
    assert found.best.exact and found.best.value == brute_force_from(game, state)
    assert all(o.value <= o.bound <= found.best.value for o in found.options)
    assert len(found.options) == len(options_at(game, state)) >= 2
    asked.clear()
    assert hint_known(game, state, budget=kept).options
    assert not any(a["state"] == state and "pinned" not in a for a in asked)


def test_hidden_values_are_reproducible_and_bounded_by_the_samples():
    game, state = endgames("base", 1)[0]
    stock = hidden_stock(state, default_deck())
    first = hint_hidden(game, state, stock, budget=30, samples=4, seed=7)
    again = hint_hidden(game, state, stock, budget=30, samples=4, seed=7)
    assert first.mode == "hidden" and first.samples == 4
    assert [(o.move, o.value, o.stderr) for o in first.options] == [(o.move, o.value, o.stderr) for o in again.options]
    assert all(o.stderr >= 0 and o.samples == 4 for o in first.options)


def test_the_hidden_stock_is_the_deck_minus_what_is_seen():
    game, state = endgames("base", 1)[0]
    stock = hidden_stock(state, default_deck())
    assert len(stock) + len(state.visible_cards()) == 101
    assert not set(stock) & set(state.visible_cards())


def test_states_of_random_games_are_valid_and_belong_to_their_deal():
    for game, state in endgames("base", 3) + endgames("ANTIQUITY+SD1", 2):
        check_solo_state(state, game.rules)
        check_against_deal(state, game.deal)


def _late_state_text():
    game, state = endgames("base", 1)[0]
    return game, state, format_state(state, game.rules)


@pytest.mark.parametrize("edit, needle", [
    (lambda s: s.replace("t", "t1", 1), "turns were played"),
    (lambda s: s.replace("d", "d9", 1), "out of the stock"),
    (lambda s: "  ", "state notation is empty"),  # not "contains ' '": there is nothing to read
])
def test_unreachable_states_are_refused_in_one_line(edit, needle):
    _, _, text = _late_state_text()
    code, out, err = run("hint", "--state", edit(text), "--budget", "1")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and needle in err, err


def test_a_card_twice_and_a_broken_requirement_are_refused():
    _, state, _ = _late_state_text()
    board = state.board
    filled = [f for f, p in enumerate(board.hall) if p is not None]
    first, second = next((a, b) for a in filled for b in filled if a < b and showcase_of(a)[0] == showcase_of(b)[0])
    hall = list(board.hall)
    hall[first], hall[second] = hall[second], hall[first]  # two cards of one showcase: years now descend
    swapped = replace(state, players=(replace(board, hall=tuple(hall)),))
    code, out, err = run("hint", "--state", format_state(swapped, Rules()))
    assert code == 2 and out == "" and "breaks a requirement" in err, err
    hall = list(board.hall)
    empty = board.hall.index(None)
    hall[empty] = Placed(state.market[0][0], state.market[0][0].continent, state.market[0][0].year)
    twice = replace(state, players=(replace(board, hall=tuple(hall)),))
    with pytest.raises(ExhibitionError, match="appears twice"):
        check_solo_state(twice, Rules())


def test_hint_json_contract_known_and_hidden(tmp_path):
    game, state, text = _late_state_text()
    deal_path = tmp_path / "deal.json"
    deal_path.write_text(json.dumps(game.deal.to_json()))
    code, out, err = run("hint", "--state", text, "--deal", str(deal_path), "--budget", "10", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["mode"] == "known" and data["decision"] in ("take", "place")
    assert set(data["options"][0]) >= {"move", "value", "loss", "stderr"}
    assert data["options"][0]["loss"] == 0
    code, out, err = run("hint", "--state", text, "--budget", "5", "--samples", "3", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["mode"] == "hidden" and 1 <= data["samples"] <= 3
    assert all(o["stderr"] is not None for o in data["options"])


def test_a_state_from_another_deal_is_refused(tmp_path):
    game, state, text = _late_state_text()
    other = endgames("base", 2)[1][0]
    deal_path = tmp_path / "deal.json"
    deal_path.write_text(json.dumps(other.deal.to_json()))
    code, _, err = run("hint", "--state", text, "--deal", str(deal_path))
    assert code == 2 and "does not belong to the deal" in err


def test_grades_follow_the_documented_thresholds():
    assert [grade(x) for x in (0, 1, 49, 50, 149, 150, 399, 400, 2000)] == \
        ["best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def _review_json(tmp_path, game, plan, *options) -> dict:
    """``exhibition review --format json`` of ``plan`` on ``game``'s deal."""
    deal_path, plan_path = tmp_path / "deal.json", tmp_path / "plan.json"
    deal_path.write_text(json.dumps(game.deal.to_json()))
    plan_path.write_text(json.dumps(plan_to_json(plan, game.layout)))
    code, out, err = run("review", "--deal", str(deal_path), "--plan", str(plan_path), *options, "--quiet",
                         "--format", "json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.slow
def test_review_grades_every_decision(tmp_path):
    from solver.deal import seeded_deal
    from solver.greedy import greedy_plan

    game = Game(seeded_deal(5))
    plan = greedy_plan(game)
    data = _review_json(tmp_path, game, plan, "--budget", "0.2", "--samples", "2")
    assert len(data["decisions"]) == 2 * len(plan)
    for row in data["decisions"]:
        for mode in ("known", "hidden"):
            assert row[mode]["loss"] >= 0 and row[mode]["grade"] == grade(row[mode]["loss"])
    summary = data["summary"]
    assert summary["total_loss"] == summary["optimum"] - summary["score"] >= 0


@pytest.mark.slow
def test_reviewing_a_daily_puzzles_own_line_loses_nothing_against_its_target(tmp_path):
    entry = next(e for e in load_solved().values() if e.status == "optimal")
    data = _review_json(tmp_path, Game(entry.puzzle.deal), plan_turns(entry), "--budget", "0.1", "--samples", "1")
    assert all(row["known"]["loss"] == 0 and row["known"]["best_value"] == entry.target for row in data["decisions"])
    summary = data["summary"]
    assert summary["score"] == summary["optimum"] == summary["bound"] == entry.target
    assert summary["optimum_status"] == "optimal" and summary["total_loss"] == summary["known_loss"] == 0


@pytest.mark.slow
def test_known_hints_at_a_deals_start_prove_it_first_given_the_time(monkeypatch):
    """With 10 s or more, the proof by cells gets 0.6 of the budget first; its line's first
    take is exact once proven, and its bound holds for every option. With less, it does not run."""
    import solver.hints
    from solver.cells import solve_by_cells
    from solver.deal import seeded_deal

    game = Game(seeded_deal(23))  # proven in about a second
    asked = []

    def proving(g, limit):
        asked.append(limit)
        return solve_by_cells(g, limit)

    monkeypatch.setattr(solver.hints, "solve_by_cells", proving)
    found = hint_known(game, game.initial_state(), budget=10)
    assert asked == [pytest.approx(6.0)]
    assert found.best.exact and found.best.value == 2692
    assert all(option.bound == 2692 and option.value <= 2692 for option in found.options)
    assert hint_known(game, game.initial_state(), budget=2).options and asked == [pytest.approx(6.0)]
    state = game.apply_take(game.initial_state(), found.best.move)
    assert hint_known(game, state, budget=10).options and len(asked) == 1  # not at the start: no proof


@pytest.mark.slow
def test_a_review_proves_the_optimum_first_and_values_its_line_exactly(tmp_path, monkeypatch):
    """Any deal, not a daily puzzle: the review takes the optimum from the proof by cells
    (given 20 times the budget), and along that proven line the known-deal values are the
    optimum itself, so playing the line loses nothing (solving each option within the
    budget instead, the code before charged this line 4126 points of losses)."""
    import puzzles.daily
    from solver.cells import solve_by_cells
    from solver.deal import seeded_deal

    game = Game(seeded_deal(23))  # proven in about a second
    proof = solve_by_cells(game, 60)
    assert proof.solution.status == "optimal"
    asked = []
    monkeypatch.setattr(puzzles.daily, "solve_by_cells", lambda g, limit, *rest: asked.append(limit) or proof)
    data = _review_json(tmp_path, game, proof.solution.plan, "--budget", "0.1", "--samples", "1")
    assert asked == [pytest.approx(2.0)]
    assert all(row["known"]["loss"] == 0 and row["known"]["best_value"] == proof.solution.score
               for row in data["decisions"])
    summary = data["summary"]
    assert summary["optimum"] == summary["bound"] == summary["score"] == proof.solution.score
    assert summary["optimum_status"] == "optimal" and summary["known_loss"] == 0


@pytest.mark.slow
def test_a_review_whose_optimum_is_not_proven_counts_the_game_reviewed_as_reached(tmp_path, monkeypatch):
    """Out of time, the proof's best plan may score less than the game reviewed: the optimum
    shown is then that game's score, never a negative total loss."""
    import puzzles.daily
    from solver.cells import CellProof, solve_by_cells
    from solver.deal import seeded_deal
    from solver.solve import greedy_solution

    game = Game(seeded_deal(23))
    line = solve_by_cells(game, 60).solution
    weak = replace(greedy_solution(game), status="feasible")  # as if the proof had run out of time
    monkeypatch.setattr(puzzles.daily, "solve_by_cells", lambda g, limit, *rest: CellProof(weak, 0, 1, limit))
    data = _review_json(tmp_path, game, line.plan, "--budget", "0.1", "--samples", "1")
    summary = data["summary"]
    assert summary["optimum_status"] == "feasible" and summary["optimum"] == summary["score"] == line.score
    assert summary["total_loss"] == 0 and summary["bound"] >= line.score


def test_hidden_place_values_are_real_scores_of_the_sampled_game():
    """Place options share one beam per sample; each value is the engine's score of a plan
    on that sample, so never above the exhaustive optimum of the option there."""
    positions = [(g, s) for g, s in endgames("base", 6) if s.holding is not None and not s.holding.is_white]
    assert positions
    for game, state in positions[:2]:
        stock = hidden_stock(state, default_deck())
        sample = sampled_game(game, state, stock, seed=3)
        moves = options_at(game, state)
        with ThreadPoolExecutor(2) as pool:
            valued = _sample_values(sample, state, moves, 0.5, pool, deadline=time.perf_counter() + 60)
        assert [move for _, move in valued] == moves  # a coloured card's options are played as they are
        values = [value for value, _ in valued]
        exact = [brute_force_from(sample, game.apply_place(state, move)) for move in moves]
        assert all(v <= e for v, e in zip(values, exact))
        assert max(values) == max(exact)  # late in a game the beam's lines include the best one


def test_a_sample_whose_placement_failed_past_the_deadline_is_given_up(monkeypatch):
    """When an option's placement finds nothing and the decision's deadline has passed
    meanwhile, a sample that may be given up is, rather than solving the rest anew (a whole
    solve runs past its limit: a 5 s decision took 5.5 s that way); a first sample, which
    may not be, values every option all the same."""
    def nothing_in_time(*args, **kwargs):
        time.sleep(0.2)
        return None

    monkeypatch.setattr("solver.hints.place_candidates", nothing_in_time)
    game, state = next((g, s) for g, s in endgames("base", 6) if s.holding is not None and not s.holding.is_white)
    sample = sampled_game(game, state, hidden_stock(state, default_deck()), seed=3)
    moves = options_at(game, state)
    with ThreadPoolExecutor(2) as pool:
        given_up = _sample_values(sample, state, moves, 0.5, pool, deadline=time.perf_counter() + 0.15, abandon=True)
        first = _sample_values(sample, state, moves, 0.5, pool, deadline=time.perf_counter() + 0.15)
    assert given_up is None
    assert [move for _, move in first] == moves
    exact = [brute_force_from(sample, game.apply_place(state, move)) for move in moves]
    assert all(value <= e for (value, _), e in zip(first, exact))


def test_hidden_hints_for_a_white_card_come_with_the_declaration_its_samples_picked():
    """A white card's place option is a spot; in hidden mode each sample's placement picks
    its declaration, and the option carries the one most samples picked, so the best option
    is a move the engine takes as it stands."""
    game, state = holding_a_white_card(turns_left=6)
    found = hint_hidden(game, state, hidden_stock(state, default_deck()), budget=30, samples=3, seed=5)
    spots = [o.move for o in found.options if o.move.is_spot]
    assert spots and all(move.declare is not None for move in spots)
    assert {o.move.target for o in found.options} == {move.target for move in options_at(game, state)}
    game.apply_place(state, found.best.move)  # legal, declaration included (the engine checks)
    assert _most_played(["a", "b", "b", "a"]) == "a" and _most_played(["a", "b", "b"]) == "b"


def test_the_race_keeps_close_options_and_drops_clear_losers():
    best = [2500, 2400, 2600, 2500]
    close = [2450, 2420, 2550, 2480]  # 37 below on average
    noisy = [2200, 2800, 2100, 2900]  # no loss on average, but a wide spread
    loser = [2300, 2200, 2400, 2300]  # 200 below every time
    totals = [best, close, noisy, loser]
    assert _contenders(totals, [0, 1, 2, 3]) == [0, 1, 2]
    assert _contenders([t[:1] for t in totals], [0, 1, 2, 3]) == [0, 1, 2, 3]  # one sample: a wide margin
    assert _contenders([[2500], [2500 - RACE_MARGIN - 1]], [0, 1]) == [0]


def test_a_dropped_option_is_valued_against_the_best_on_their_shared_samples():
    best = [2500, 2300, 2700, 2500]
    dropped = _sampled_option("move", [2100, 1900], best)
    assert dropped.samples == 2
    assert dropped.value == sum(best) / 4 - 400  # 400 below the best on both shared samples
    assert dropped.stderr == 0
    kept = _sampled_option("move", best, best)
    assert kept.value == 2500 and kept.samples == 4


def test_hidden_hints_spend_their_samples_on_the_contenders():
    game, state = next((g, s) for g, s in endgames("base", 8) if s.holding is not None and not s.holding.is_white)
    found = hint_hidden(game, state, hidden_stock(state, default_deck()), budget=30, samples=6, seed=2)
    assert found.samples == 6
    assert found.best.samples == 6
    assert all(1 <= o.samples <= 6 for o in found.options)
    assert [o.value for o in found.options] == sorted((o.value for o in found.options), reverse=True)


def test_hidden_take_values_are_real_scores_of_the_sampled_game():
    positions = [(g, s) for g, s in endgames("base", 5) if s.holding is None]
    assert positions
    game, state = positions[0]
    sample = sampled_game(game, state, hidden_stock(state, default_deck()), seed=4)
    moves = options_at(game, state)
    with ThreadPoolExecutor(2) as pool:
        values = [value for value, _ in _sample_values(sample, state, moves, 0.5, pool,
                                                       deadline=time.perf_counter() + 60)]
    exact = [brute_force_from(sample, sample.apply_take(state, move)) for move in moves]
    assert all(v <= e for v, e in zip(values, exact))
    assert max(values) == max(exact)
