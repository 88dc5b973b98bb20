from .property import Property


class Street(Property):
    """A coloured street: rents is [no house, 1, 2, 3, 4 houses, hotel];
    number_of_houses runs to 5, a hotel."""

    def __init__(self, name, property_set, price, house_price, rents):
        super().__init__(name, property_set, price)
        self.house_price = house_price
        self.rents = rents
        self.number_of_houses = 0

    def calculate_rent(self, game, player):
        if self.number_of_houses:
            return self.rents[self.number_of_houses]
        # Unimproved, the rent doubles when the owner holds the whole set
        # unmortgaged.
        if self.property_set in self.owner.state.owned_unmortgaged_sets:
            return 2 * self.rents[0]
        return self.rents[0]
