"""A stand-in for Monopyly's ``monopyly`` package, built from gopoly's view.

Monopyly's contest AIs do ``from monopyly import *`` and read the game
through the objects defined here: GameState, Board, squares (Street,
Station, Utility, ...), PropertySet, Player and PlayerState, and the
deal classes. gopoly's host (``monopyly_host/host.py``) keeps one
GameState per game and refreshes it from every view gopoly sends, so
that these objects keep their identity (``property.owner is player``)
while their fields follow the game. Written for gopoly from Monopyly's
documented interface; no Monopyly code is included.

The squares carry Monopyly's UK names by board position (the standard
40-square board), and gopoly's prices, rents and house costs.
"""

import sys


class Logger(object):
    """Monopyly's logger: AIs' messages go to stderr, which gopoly logs.

    Only WARNING and above are written unless MONOPYLY_LOG_LEVEL says
    otherwise (DEBUG, INFO), so that a chatty AI does not flood the log.
    """
    DEBUG = 0
    INFO = 1
    WARNING = 2
    ERROR = 3
    FATAL = 4
    level = WARNING
    _indent = 0

    @staticmethod
    def log(message, level=INFO):
        if level >= Logger.level:
            sys.stderr.write("  " * Logger._indent + str(message) + "\n")

    @staticmethod
    def indent():
        Logger._indent += 1

    @staticmethod
    def dedent():
        Logger._indent = max(0, Logger._indent - 1)

    @staticmethod
    def add_handler(handler):
        pass

    @staticmethod
    def remove_handler(handler):
        pass


class Square(object):
    """A square of the board."""

    class Name(object):
        GO = "Go"
        OLD_KENT_ROAD = "Old Kent Road"
        COMMUNITY_CHEST = "Community Chest"
        WHITECHAPEL_ROAD = "Whitechapel Road"
        INCOME_TAX = "Income Tax"
        KINGS_CROSS_STATION = "Kings Cross Station"
        THE_ANGEL_ISLINGTON = "The Angel Islington"
        CHANCE = "Chance"
        EUSTON_ROAD = "Euston Road"
        PENTONVILLE_ROAD = "Pentonville Road"
        JAIL = "Jail"
        PALL_MALL = "Pall Mall"
        ELECTRIC_COMPANY = "Electric Company"
        WHITEHALL = "Whitehall"
        NORTHUMBERLAND_AVENUE = "Northumberland Avenue"
        MARYLEBONE_STATION = "Marylebone Station"
        BOW_STREET = "Bow Street"
        MARLBOROUGH_STREET = "Marlborough Street"
        VINE_STREET = "Vine Street"
        FREE_PARKING = "Free Parking"
        STRAND = "Strand"
        FLEET_STREET = "Fleet Street"
        TRAFALGAR_SQUARE = "Trafalgar Square"
        FENCHURCH_STREET_STATION = "Fenchurch Street Station"
        LEICESTER_SQUARE = "Leicester Square"
        COVENTRY_STREET = "Coventry Street"
        WATER_WORKS = "Water Works"
        PICCADILLY = "Piccadilly"
        GO_TO_JAIL = "Go To Jail"
        REGENT_STREET = "Regent Street"
        OXFORD_STREET = "Oxford Street"
        BOND_STREET = "Bond Street"
        LIVERPOOL_STREET_STATION = "Liverpool Street Station"
        PARK_LANE = "Park Lane"
        SUPER_TAX = "Super Tax"
        MAYFAIR = "Mayfair"

    def __init__(self, name):
        self.name = name

    def copy(self):
        return self

    def __repr__(self):
        return self.name


class PropertySet(object):
    """The properties of one set, with who owns them."""
    INVALID = 0
    BROWN = 1
    LIGHT_BLUE = 2
    PURPLE = 3
    ORANGE = 4
    RED = 5
    YELLOW = 6
    GREEN = 7
    DARK_BLUE = 8
    STATION = 9
    UTILITY = 10

    def __init__(self, set_enum):
        self.set_enum = set_enum
        self.properties = []
        self.house_price = 0

    @property
    def number_of_properties(self):
        return len(self.properties)

    @property
    def number_of_owned_properties(self):
        return sum(1 for p in self.properties if p.owner is not None)

    @property
    def owners(self):
        owners = []
        for p in self.properties:
            if p.owner is not None and p.owner not in owners:
                owners.append(p.owner)
        n = float(len(self.properties))
        return [(o, sum(1 for p in self.properties if p.owner is o) / n) for o in owners]

    @property
    def owner(self):
        owners = self.owners
        if len(owners) == 1 and owners[0][1] == 1.0:
            return owners[0][0]
        return None

    @property
    def all_properties_are_unmortgaged(self):
        return all(not p.is_mortgaged for p in self.properties)

    @property
    def can_build_houses(self):
        """Owned whole, unmortgaged, and not every street at a hotel."""
        return (self.set_enum not in (PropertySet.STATION, PropertySet.UTILITY)
                and self.owner is not None and self.all_properties_are_unmortgaged
                and any(p.number_of_houses < 5 for p in self.properties))

    def __repr__(self):
        return "PropertySet(%d)" % self.set_enum


class Property(Square):
    """A square that can be owned: Street, Station or Utility."""
    NOT_OWNED = -1
    Set = PropertySet

    def __init__(self, name, property_set, price):
        Square.__init__(self, name)
        self.property_set = property_set
        self.street_set = property_set.set_enum
        self.price = price
        self.mortgage_value = price // 2
        self.is_mortgaged = False
        self.owner = None
        self.index = -1

    @property
    def owner_player_number(self):
        return self.owner.state.player_number if self.owner is not None else Property.NOT_OWNED


class Street(Property):
    def __init__(self, name, property_set, price, house_price, rents):
        Property.__init__(self, name, property_set, price)
        self.house_price = house_price
        self.rents = list(rents)
        self.number_of_houses = 0


class Station(Property):
    pass


class Utility(Property):
    pass


class Go(Square):
    pass


class Jail(Square):
    pass


class GoToJail(Square):
    pass


class FreeParking(Square):
    pass


class Chance(Square):
    pass


class CommunityChest(Square):
    pass


class Tax(Square):
    def __init__(self, name, tax):
        Square.__init__(self, name)
        self.tax = tax


# Monopyly's board by position: (name, square class, set) for the
# standard 40 squares; gopoly's rules give the numbers.
_N = Square.Name
_P = PropertySet
LAYOUT = [
    (_N.GO, Go, None), (_N.OLD_KENT_ROAD, Street, _P.BROWN), (_N.COMMUNITY_CHEST, CommunityChest, None),
    (_N.WHITECHAPEL_ROAD, Street, _P.BROWN), (_N.INCOME_TAX, Tax, None), (_N.KINGS_CROSS_STATION, Station, _P.STATION),
    (_N.THE_ANGEL_ISLINGTON, Street, _P.LIGHT_BLUE), (_N.CHANCE, Chance, None), (_N.EUSTON_ROAD, Street, _P.LIGHT_BLUE),
    (_N.PENTONVILLE_ROAD, Street, _P.LIGHT_BLUE), (_N.JAIL, Jail, None), (_N.PALL_MALL, Street, _P.PURPLE),
    (_N.ELECTRIC_COMPANY, Utility, _P.UTILITY), (_N.WHITEHALL, Street, _P.PURPLE),
    (_N.NORTHUMBERLAND_AVENUE, Street, _P.PURPLE), (_N.MARYLEBONE_STATION, Station, _P.STATION),
    (_N.BOW_STREET, Street, _P.ORANGE), (_N.COMMUNITY_CHEST, CommunityChest, None),
    (_N.MARLBOROUGH_STREET, Street, _P.ORANGE), (_N.VINE_STREET, Street, _P.ORANGE), (_N.FREE_PARKING, FreeParking, None),
    (_N.STRAND, Street, _P.RED), (_N.CHANCE, Chance, None), (_N.FLEET_STREET, Street, _P.RED),
    (_N.TRAFALGAR_SQUARE, Street, _P.RED), (_N.FENCHURCH_STREET_STATION, Station, _P.STATION),
    (_N.LEICESTER_SQUARE, Street, _P.YELLOW), (_N.COVENTRY_STREET, Street, _P.YELLOW),
    (_N.WATER_WORKS, Utility, _P.UTILITY), (_N.PICCADILLY, Street, _P.YELLOW), (_N.GO_TO_JAIL, GoToJail, None),
    (_N.REGENT_STREET, Street, _P.GREEN), (_N.OXFORD_STREET, Street, _P.GREEN), (_N.COMMUNITY_CHEST, CommunityChest, None),
    (_N.BOND_STREET, Street, _P.GREEN), (_N.LIVERPOOL_STREET_STATION, Station, _P.STATION), (_N.CHANCE, Chance, None),
    (_N.PARK_LANE, Street, _P.DARK_BLUE), (_N.SUPER_TAX, Tax, None), (_N.MAYFAIR, Street, _P.DARK_BLUE),
]

# gopoly's square kinds that each Monopyly class stands for.
KINDS = {Go: "go", Street: "street", Station: "railroad", Utility: "utility", Jail: "jail"}


class Board(object):
    """The board: Monopyly's squares with gopoly's numbers."""
    NUMBER_OF_SQUARES = 40

    def __init__(self, rules):
        """Build from gopoly's rules (a start message's "rules")."""
        board = rules["board"]
        if len(board) != len(LAYOUT):
            raise ValueError("the board has %d squares; Monopyly AIs need the standard 40" % len(board))
        groups = {g["name"]: g.get("house_cost", 0) for g in rules.get("groups", [])}
        self.squares = []
        self.property_sets = {}
        for i, ((name, cls, set_enum), sq) in enumerate(zip(LAYOUT, board)):
            want = KINDS.get(cls, "action")
            if sq.get("kind") != want:
                raise ValueError("square %d (%s) is a %s; Monopyly's %s is a %s" % (i, sq.get("name"), sq.get("kind"), name, want))
            if set_enum is None:
                if cls is Tax:
                    square = Tax(name, _tax(sq.get("do", "")))
                else:
                    square = cls(name)
            else:
                ps = self.property_sets.setdefault(set_enum, PropertySet(set_enum))
                if cls is Street:
                    ps.house_price = groups.get(sq.get("group"), 0)
                    square = Street(name, ps, sq["price"], ps.house_price, sq.get("rent", []))
                else:
                    square = cls(name, ps, sq["price"])
                ps.properties.append(square)
            square.index = i
            self.squares.append(square)
        self._index = {}
        for i, sq in enumerate(self.squares):
            self._index.setdefault(sq.name, []).append(i)

    def get_index(self, square_name):
        return self._index[square_name]

    def get_square_by_name(self, square_name):
        return self.squares[self._index[square_name][0]]

    def get_property_set(self, set_enum):
        return self.property_sets[set_enum]

    @property
    def properties(self):
        return [s for s in self.squares if isinstance(s, Property)]


def _tax(program):
    """The amount of a "TAX n ..." program."""
    words = program.split()
    try:
        return int(words[1]) if words and words[0] == "TAX" else 0
    except (IndexError, ValueError):
        return 0


class PlayerState(object):
    def __init__(self, player_number):
        self.player_number = player_number
        self.square = 0
        self.cash = 1500
        self.properties = set()
        self.get_out_of_jail_free_cards = []
        self.is_in_jail = False
        self.number_of_turns_in_jail = 0
        self.owned_sets = set()
        self.owned_unmortgaged_sets = set()
        self.ai_processing_seconds_remaining = 60.0
        self.ai_processing_seconds_used = 0.0

    @property
    def number_of_get_out_of_jail_free_cards(self):
        return len(self.get_out_of_jail_free_cards)

    def get_number_of_houses_and_hotels(self, board=None):
        houses = hotels = 0
        for p in self.properties:
            if isinstance(p, Street):
                if p.number_of_houses == 5:
                    hotels += 1
                else:
                    houses += p.number_of_houses
        return houses, hotels


class Player(object):
    def __init__(self, ai, player_number, board):
        self.ai = ai
        self.board = board
        self.state = PlayerState(player_number)

    @property
    def name(self):
        return self.ai.get_name()

    @property
    def player_number(self):
        return self.state.player_number

    @property
    def net_worth(self):
        total = self.state.cash
        for p in self.state.properties:
            total += p.mortgage_value
            if isinstance(p, Street):
                total += int(p.house_price / 2 * p.number_of_houses)
        return total

    def owns_properties(self, property_names):
        for n in property_names:
            sq = self.board.get_square_by_name(n)
            if not isinstance(sq, Property) or sq.owner is not self:
                return False
        return True

    def is_same_player(self, other):
        return other is self or other is self.ai

    def __repr__(self):
        return self.name


class GameState(object):
    def __init__(self, board):
        self.board = board
        self.players = []
        self.bankrupt_players = []

    @property
    def number_of_players(self):
        return len(self.players)

    def copy(self):
        return self


class DealProposal(object):
    def __init__(self, propose_to_player=None, properties_offered=None, properties_wanted=None,
                 maximum_cash_offered=0, minimum_cash_wanted=0):
        self.propose_to_player = propose_to_player
        self.properties_offered = properties_offered or []
        self.properties_wanted = properties_wanted or []
        self.maximum_cash_offered = maximum_cash_offered
        self.minimum_cash_wanted = minimum_cash_wanted
        self.proposed_by_player = None

    @property
    def deal_proposed(self):
        return bool(self.properties_offered or self.properties_wanted)

    def __str__(self):
        return "Offered: %s. Wanted: %s" % (self.properties_offered, self.properties_wanted)


class DealResponse(object):
    class Action(object):
        ACCEPT = 0
        REJECT = 1

    def __init__(self, action, maximum_cash_offered=0, minimum_cash_wanted=0):
        self.action = action
        self.maximum_cash_offered = maximum_cash_offered
        self.minimum_cash_wanted = minimum_cash_wanted


class DealResult(object):
    def __init__(self):
        self.proposer = None
        self.proposee = None
        self.properties_transferred_to_proposer = []
        self.properties_transferred_to_proposee = []
        self.cash_transferred_from_proposer_to_proposee = 0


class PlayerAIBase(object):
    """The base class of Monopyly AIs: every callback, doing nothing."""

    class Action(object):
        BUY = 0
        DO_NOT_BUY = 1
        PAY_TEN_POUND_FINE = 2
        TAKE_A_CHANCE = 3
        BUY_WAY_OUT_OF_JAIL = 4
        PLAY_GET_OUT_OF_JAIL_FREE_CARD = 5
        STAY_IN_JAIL = 6
        AUCTION_SUCCEEDED = 7
        AUCTION_FAILED = 8

    class DealInfo(object):
        SUCCEEDED = 0
        INVALID_DEAL_PROPOSED = 1
        ASKED_FOR_TOO_MUCH_MONEY = 2
        OFFERED_TOO_LITTLE_MONEY = 3
        PLAYER_DID_NOT_HAVE_ENOUGH_MONEY = 4
        DEAL_REJECTED = 5

    def get_name(self):
        return "no-name"

    def start_of_game(self):
        pass

    def start_of_turn(self, game_state, player):
        pass

    def player_landed_on_square(self, game_state, square, player):
        pass

    def landed_on_unowned_property(self, game_state, player, property):
        return PlayerAIBase.Action.DO_NOT_BUY

    def money_will_be_taken(self, player, amount):
        pass

    def money_taken(self, player, amount):
        pass

    def money_given(self, player, amount):
        pass

    def got_get_out_of_jail_free_card(self):
        pass

    def players_birthday(self):
        return "Happy Birthday!"

    def pay_ten_pounds_or_take_a_chance(self, game_state, player):
        return PlayerAIBase.Action.PAY_TEN_POUND_FINE

    def property_offered_for_auction(self, game_state, player, property):
        return 0

    def auction_result(self, status, property, player, amount_paid):
        pass

    def build_houses(self, game_state, player):
        return []

    def sell_houses(self, game_state, player):
        return []

    def mortgage_properties(self, game_state, player):
        return []

    def unmortgage_properties(self, game_state, player):
        return []

    def get_out_of_jail(self, game_state, player):
        return PlayerAIBase.Action.STAY_IN_JAIL

    def propose_deal(self, game_state, player):
        return None

    def deal_proposed(self, game_state, player, deal_proposal):
        return DealResponse(DealResponse.Action.REJECT)

    def deal_result(self, deal_info):
        pass

    def deal_completed(self, deal_result):
        pass

    def player_went_bankrupt(self, player):
        pass

    def player_ran_out_of_time(self, player):
        pass

    def game_over(self, winner, maximum_rounds_played):
        pass

    def ai_error(self, message):
        pass

    def eminent_domain(self, game_state, player):
        pass


__all__ = [
    "Logger", "Square", "PropertySet", "Property", "Street", "Station", "Utility", "Go", "Jail", "GoToJail",
    "FreeParking", "Chance", "CommunityChest", "Tax", "Board", "PlayerState", "Player", "GameState",
    "DealProposal", "DealResponse", "DealResult", "PlayerAIBase",
]
