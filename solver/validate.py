"""Is a solo game state one the rules could have produced? (hints, review and play start
from states typed or pasted by people, so they are checked before anything is solved).

The notation parser (``solver/notation.py``) checks the shape; this module checks what the
rules imply: no card twice, the card counts that turns and draws imply, every hall card
legal beside the others, and, with a deal or a deck, the same cards as it.
"""

from __future__ import annotations

from collections import Counter

from solver.cards import Card
from solver.deal import Deal
from solver.deck import Deck
from solver.errors import DealError, RulesError
from solver.requirements import violation
from solver.rules import COLUMN_SIZE, DEPOT_SIZE, MARKET_SIZE, Rules, spot_name
from solver.state import State


def check_solo_state(state: State, rules: Rules) -> None:
    """Raise RulesError with a one-line reason if ``state`` is not a reachable solo state
    with a decision to make."""
    if len(state.players) != 1:
        raise RulesError(f"the state has {len(state.players)} players; hints and solving are for solo games")
    board = state.board
    if state.is_over:
        raise RulesError("the game in this state is over: there is no decision left")
    cards = state.visible_cards()
    twice = [c for c, n in Counter(cards).items() if n > 1]
    if twice:
        raise RulesError(f"card {twice[0].code} appears twice (market, hall, depot or held)")
    years = Counter(c.year for c in cards if c.year is not None and not c.is_white)
    clash = next((y for y, n in years.items() if n > 1), None)
    if clash is not None:
        raise RulesError(f"two cards of the year {clash}: every year has one card")
    for i, column in enumerate(state.market):
        if len(column) != COLUMN_SIZE:
            raise RulesError(f"market column {i + 1} holds {len(column)} cards; a solo market column always holds "
                             f"{COLUMN_SIZE} (each take is refilled from the stock)")
    if len(cards) != MARKET_SIZE + state.drawn:
        raise RulesError(f"{len(cards)} cards are out of the stock, but d{state.drawn} means "
                         f"{MARKET_SIZE} + {state.drawn} = {MARKET_SIZE + state.drawn}")
    placed = len(board.hall_cards) + len(board.depot) + (1 if board.discarded else 0)
    if placed != state.turn:
        raise RulesError(f"{placed} cards are placed but the progress says t{state.turn} turns were played")
    if state.drawn != state.turn + (1 if state.holding is not None else 0):
        raise RulesError(f"d{state.drawn}: in solo every take draws one card, so {state.turn} turns"
                         f"{' and a held card' if state.holding else ''} mean d{state.turn + (1 if state.holding else 0)}")
    if len(board.depot) > DEPOT_SIZE:
        raise RulesError(f"the depot holds {len(board.depot)} cards; it takes {DEPOT_SIZE}")
    for flat, here in enumerate(board.hall):
        if here is None:
            continue
        without = list(board.hall)
        without[flat] = None
        reason = violation(rules, [without], 0, flat, here)
        if reason is not None:
            raise RulesError(f"hall spot {spot_name(rules.layout, flat)} ({here.code}) breaks a requirement: {reason}")
    if all(p is not None for p in board.hall):
        raise RulesError("the hall is full, so the game is over: there is no decision left")


def check_against_deal(state: State, deal: Deal) -> None:
    """Raise DealError if ``state`` is not a state of this deal: the cards out of the stock
    must be exactly the deal's first 18 + drawn cards."""
    out = set(state.visible_cards())
    expected = set(deal.cards[: MARKET_SIZE + state.drawn])
    if out != expected:
        stray = sorted(out - expected, key=lambda c: c.sort_key())
        missing = sorted(expected - out, key=lambda c: c.sort_key())
        what = f"{stray[0].code} is not among the deal's first {len(expected)} cards" if stray else \
            f"{missing[0].code} should be out of the stock after {state.drawn} draws"
        raise DealError(f"the state does not belong to the deal: {what}")


def hidden_stock(state: State, deck: Deck) -> list[Card]:
    """The stock's contents when its order is hidden: the deck minus every card in sight."""
    in_deck = set(deck.cards)
    for c in state.visible_cards():
        if c not in in_deck:
            raise DealError(f"card {c.code} is not in the deck (give the deck of this game with --deck FILE)")
    seen = set(state.visible_cards())
    return [c for c in deck.cards if c not in seen]
