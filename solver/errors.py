"""Precise exception types for bad input; the CLI turns each into one line and exit 2."""

from __future__ import annotations


class ExhibitionError(ValueError):
    """Base class of every error caused by bad input (cards, files, moves, options)."""


class CardError(ExhibitionError):
    """A card code that names no card."""


class DeckError(ExhibitionError):
    """A deck file that breaks the deck rules (one card per year, valid continents)."""


class DealError(ExhibitionError):
    """A deal with a duplicate, unknown or missing card, or too few cards."""


class RulesError(ExhibitionError):
    """An impossible rules combination (unknown variation, two on one showcase...)."""


class NotationError(ExhibitionError):
    """A text notation (deal or state) that does not parse."""


class PlanError(ExhibitionError):
    """A plan file that is malformed (not a legality problem)."""


class IllegalMoveError(ExhibitionError):
    """A move the rules do not allow in the given state."""
