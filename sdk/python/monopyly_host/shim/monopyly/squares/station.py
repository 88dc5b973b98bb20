from .property import Property
from .property_set import PropertySet


class Station(Property):
    def __init__(self, name, property_set):
        super().__init__(name, property_set, 200)

    def calculate_rent(self, game, player):
        # 25, 50, 100, 200 for the owner's one to four stations.
        owned = len(game.state.board.get_property_set(PropertySet.STATION).intersection(self.owner.state.properties))
        return 25 * 2 ** (owned - 1) if 1 <= owned <= 4 else 0
