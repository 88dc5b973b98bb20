from .property import Property
from .property_set import PropertySet


class Utility(Property):
    def __init__(self, name, property_set):
        super().__init__(name, property_set, 150)

    def calculate_rent(self, game, player):
        # 4 times the dice with one utility, 10 times with both.
        owned = len(game.state.board.get_property_set(PropertySet.UTILITY).intersection(self.owner.state.properties))
        return {1: 4, 2: 10}.get(owned, 0) * game.most_recent_total_dice_roll
