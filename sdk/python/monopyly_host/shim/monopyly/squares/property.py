from .square import Square


class Property(Square):
    """A square that can be owned (Street, Station, Utility): its set,
    price, owner (a Player or None) and mortgage."""

    def __init__(self, name, property_set, price):
        super().__init__(name)
        self.property_set = property_set
        property_set.add_property(self)
        self.price = price
        self.is_mortgaged = False
        self.owner = None

    @property
    def mortgage_value(self):
        return int(self.price / 2)

    def calculate_rent(self, game, player):
        """The rent player would pay here (game: Monopyly's Game, which
        only stations and utilities read)."""
        raise NotImplementedError("calculate_rent is for Street, Station and Utility")
