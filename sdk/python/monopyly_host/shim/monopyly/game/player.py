import time

from ..squares import Property, Street
from .player_state import PlayerState


class Player(object):
    """A player of the game: its AI, its number and its PlayerState."""

    def __init__(self, ai, player_number, board):
        self.state = PlayerState()
        self.ai = ai
        self.board = board
        self.player_number = player_number

    def owns_properties(self, properties):
        """Whether every one of properties (Property objects) is this player's."""
        return all(isinstance(p, Property) and p.owner is self for p in properties)

    @property
    def net_worth(self):
        """Cash, the unmortgaged properties' mortgage values and the
        houses' resale values."""
        total = self.state.cash
        for p in self.state.properties:
            if not p.is_mortgaged:
                total += p.mortgage_value
            if type(p) is Street:
                total += int(p.house_price / 2 * p.number_of_houses)
        return total

    @property
    def name(self):
        return self.ai.get_name()

    def is_same_player(self, other):
        """Whether other (a Player or an AI) is this player."""
        return other is self or other is self.ai

    def call_ai(self, function, *args):
        """Call one of the AI's functions, counting its time."""
        began = time.perf_counter()
        result = function(*args)
        spent = time.perf_counter() - began
        self.state.ai_processing_seconds_remaining -= spent
        self.state.ai_processing_seconds_used += spent
        return result
