from ..squares import Street


class PlayerState(object):
    """A player's money, square (0 Go ... 39 Mayfair), properties (a set
    of Property objects), jail, Get Out of Jail Free cards, the whole
    sets it owns (all, and those with nothing mortgaged) and the AI's
    processing time."""

    def __init__(self):
        self.square = 0
        self.cash = 1500
        self.properties = set()
        self.get_out_of_jail_free_cards = []
        self.is_in_jail = False
        self.number_of_turns_in_jail = 0
        self.owned_sets = set()
        self.owned_unmortgaged_sets = set()
        self.ai_processing_seconds_remaining = 20.0
        self.ai_processing_seconds_used = 0.0
        self.turns_played = 0

    def get_number_of_houses_and_hotels(self, board):
        """(houses, hotels) on the player's streets; 5 houses are a hotel."""
        houses = hotels = 0
        for p in self.properties:
            if type(p) is Street:
                if p.number_of_houses == 5:
                    hotels += 1
                else:
                    houses += p.number_of_houses
        return houses, hotels

    @property
    def number_of_get_out_of_jail_free_cards(self):
        return len(self.get_out_of_jail_free_cards)
