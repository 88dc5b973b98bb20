from ..cards import ChanceDeck, CommunityChestDeck
from ..squares import (Chance, CommunityChest, FreeParking, Go, GoToJailSquare, Jail, PropertySet, Square, Station,
                       Street, Tax, Utility)

_N, _S = Square.Name, PropertySet

# Monopyly's board, square by square: the streets' set, price, house
# price and rents ([no house, 1-4 houses, hotel]).
_STREETS = {
    _N.OLD_KENT_ROAD: (_S.BROWN, 60, 50, [2, 10, 30, 90, 160, 250]),
    _N.WHITECHAPEL_ROAD: (_S.BROWN, 60, 50, [4, 20, 60, 180, 320, 450]),
    _N.THE_ANGEL_ISLINGTON: (_S.LIGHT_BLUE, 100, 50, [6, 30, 90, 270, 400, 550]),
    _N.EUSTON_ROAD: (_S.LIGHT_BLUE, 100, 50, [6, 30, 90, 270, 400, 550]),
    _N.PENTONVILLE_ROAD: (_S.LIGHT_BLUE, 120, 50, [8, 40, 100, 300, 450, 600]),
    _N.PALL_MALL: (_S.PURPLE, 140, 100, [10, 50, 150, 450, 625, 750]),
    _N.WHITEHALL: (_S.PURPLE, 140, 100, [10, 50, 150, 450, 625, 750]),
    _N.NORTHUMBERLAND_AVENUE: (_S.PURPLE, 160, 100, [12, 60, 180, 500, 700, 900]),
    _N.BOW_STREET: (_S.ORANGE, 180, 100, [14, 70, 200, 550, 750, 950]),
    _N.MARLBOROUGH_STREET: (_S.ORANGE, 180, 100, [14, 70, 200, 550, 750, 950]),
    _N.VINE_STREET: (_S.ORANGE, 200, 100, [16, 80, 220, 600, 800, 1000]),
    _N.STRAND: (_S.RED, 220, 150, [18, 90, 250, 700, 875, 1050]),
    _N.FLEET_STREET: (_S.RED, 220, 150, [18, 90, 250, 700, 875, 1050]),
    _N.TRAFALGAR_SQUARE: (_S.RED, 240, 150, [20, 100, 300, 750, 925, 1100]),
    _N.LEICESTER_SQUARE: (_S.YELLOW, 260, 150, [22, 110, 330, 800, 975, 1150]),
    _N.COVENTRY_STREET: (_S.YELLOW, 260, 150, [22, 110, 330, 800, 975, 1150]),
    _N.PICCADILLY: (_S.YELLOW, 280, 150, [22, 120, 360, 850, 1025, 1200]),
    _N.REGENT_STREET: (_S.GREEN, 300, 200, [26, 130, 390, 900, 1100, 1275]),
    _N.OXFORD_STREET: (_S.GREEN, 300, 200, [26, 130, 390, 900, 1100, 1275]),
    _N.BOND_STREET: (_S.GREEN, 320, 200, [28, 150, 450, 1000, 1200, 1400]),
    _N.PARK_LANE: (_S.DARK_BLUE, 350, 200, [35, 175, 500, 1100, 1300, 1500]),
    _N.MAYFAIR: (_S.DARK_BLUE, 400, 200, [50, 200, 600, 1400, 1700, 2000]),
}

_LAYOUT = [
    _N.GO, _N.OLD_KENT_ROAD, _N.COMMUNITY_CHEST, _N.WHITECHAPEL_ROAD, _N.INCOME_TAX, _N.KINGS_CROSS_STATION,
    _N.THE_ANGEL_ISLINGTON, _N.CHANCE, _N.EUSTON_ROAD, _N.PENTONVILLE_ROAD, _N.JAIL, _N.PALL_MALL,
    _N.ELECTRIC_COMPANY, _N.WHITEHALL, _N.NORTHUMBERLAND_AVENUE, _N.MARYLEBONE_STATION, _N.BOW_STREET,
    _N.COMMUNITY_CHEST, _N.MARLBOROUGH_STREET, _N.VINE_STREET, _N.FREE_PARKING, _N.STRAND, _N.CHANCE,
    _N.FLEET_STREET, _N.TRAFALGAR_SQUARE, _N.FENCHURCH_STREET_STATION, _N.LEICESTER_SQUARE, _N.COVENTRY_STREET,
    _N.WATER_WORKS, _N.PICCADILLY, _N.GO_TO_JAIL, _N.REGENT_STREET, _N.OXFORD_STREET, _N.COMMUNITY_CHEST,
    _N.BOND_STREET, _N.LIVERPOOL_STREET_STATION, _N.CHANCE, _N.PARK_LANE, _N.SUPER_TAX, _N.MAYFAIR,
]

_STATIONS = (_N.KINGS_CROSS_STATION, _N.MARYLEBONE_STATION, _N.FENCHURCH_STREET_STATION, _N.LIVERPOOL_STREET_STATION)
_UTILITIES = (_N.ELECTRIC_COMPANY, _N.WATER_WORKS)
_TAXES = {_N.INCOME_TAX: 200, _N.SUPER_TAX: 100}
_OTHERS = {_N.GO: Go, _N.COMMUNITY_CHEST: CommunityChest, _N.CHANCE: Chance, _N.JAIL: Jail,
           _N.FREE_PARKING: FreeParking, _N.GO_TO_JAIL: GoToJailSquare}
_SETS = [_S.BROWN, _S.LIGHT_BLUE, _S.PURPLE, _S.ORANGE, _S.RED, _S.YELLOW, _S.GREEN, _S.DARK_BLUE, _S.STATION, _S.UTILITY]


class Board(object):
    """The 40 squares from Go (0) to Mayfair (39), the property sets and
    the decks, with Monopyly's numbers (gopoly's host puts gopoly's in)."""

    NUMBER_OF_SQUARES = 40

    def __init__(self, game_state):
        self.game_state = game_state
        self._property_set_map = dict((s, PropertySet(s)) for s in _SETS)
        self.squares = [self._make(name) for name in _LAYOUT]
        self._name_to_index_map = {}
        for i, sq in enumerate(self.squares):
            self._name_to_index_map.setdefault(sq.name, []).append(i)
        self.chance_deck = ChanceDeck()
        self.community_chest_deck = CommunityChestDeck()

    def _make(self, name):
        if name in _STREETS:
            set_enum, price, house_price, rents = _STREETS[name]
            return Street(name, self._property_set_map[set_enum], price, house_price, list(rents))
        if name in _STATIONS:
            return Station(name, self._property_set_map[_S.STATION])
        if name in _UTILITIES:
            return Utility(name, self._property_set_map[_S.UTILITY])
        if name in _TAXES:
            return Tax(name, _TAXES[name])
        return _OTHERS[name]()

    def get_index_list(self, square_name):
        """Every place of the named square (Chance and Community Chest have several)."""
        return self._name_to_index_map[square_name]

    def get_index(self, square_name):
        """The (first) place of the named square."""
        return self._name_to_index_map[square_name][0]

    def get_properties_for_set(self, set_enum):
        return self.get_property_set(set_enum).properties

    def get_property_set(self, set_enum):
        return self._property_set_map[set_enum]

    def get_square_by_index(self, index):
        return self.squares[index]

    def get_square_by_name(self, square_name):
        return self.squares[self.get_index(square_name)]

    def get_owned_sets(self, include_mortgaged_sets):
        """{player: the PropertySets it owns whole}, for every player in
        the game; without include_mortgaged_sets, only the sets with
        nothing mortgaged."""
        owned = dict((p, set()) for p in self.game_state.players)
        for property_set in self._property_set_map.values():
            owner = property_set.owner
            if owner is not None and (include_mortgaged_sets or property_set.all_properties_are_unmortgaged):
                owned[owner].add(property_set)
        return owned
