"""The AI's view of a gopoly game, as the objects of a ``monopyly`` package.

A Mirror holds one Monopyly GameState (its Board, squares, PropertySets,
Players and PlayerStates) built by whichever ``monopyly`` package was
imported: the real one from the user's checkout, or gopoly's stand-in.
Both are driven through the same public interface, so that this code
does not care which it is. ``refresh`` brings every object to a gopoly
view in place (owners, mortgages, houses, cash, positions, jail,
Get Out of Jail Free cards, the players still in the game, the sets
each owns), so that the objects keep their identity across the game
(``square.owner is player``) as they do in Monopyly. gopoly stays the
referee: nothing here decides anything, and Monopyly's Game is never
run.
"""

import importlib

# gopoly's kind of square for each Monopyly square class; every other
# class is one of gopoly's "action" squares.
KINDS = {"Go": "go", "Street": "street", "Station": "railroad", "Utility": "utility", "Jail": "jail"}
OWNABLE = ("street", "railroad", "utility")


def _class(module, name):
    return getattr(importlib.import_module(module), name)


class Mirror(object):
    """One game's Monopyly objects, seat by seat as gopoly numbers them."""

    def __init__(self, rules, names, seat, ai, stand_in):
        """Build the objects for a start message's rules and names, with
        ai in seat and stand_in(name) as every other seat's AI. A ValueError
        says why the rules do not fit Monopyly's board."""
        GameState = _class("monopyly.game.game_state", "GameState")
        Player = _class("monopyly.game.player", "Player")
        self.GetOutOfJailFree = _class("monopyly.cards.get_out_of_jail_free", "GetOutOfJailFree")
        self.state = GameState()
        self.board = self.state.board
        self._fit(rules)
        self._index = dict((id(sq), i) for i, sq in enumerate(self.board.squares))
        self.properties = [(i, sq) for i, sq in enumerate(self.board.squares) if KINDS.get(type(sq).__name__) in OWNABLE]
        self.players = [Player(ai if i == seat else stand_in(n), i, self.board) for i, n in enumerate(names)]
        self.state.players[:] = self.players
        self.me = self.players[seat]
        self._cards = {}  # deck name: its Get Out of Jail Free cards, made as players hold them
        sets = dict((id(sq.property_set), sq.property_set) for i, sq in self.properties)  # in board order
        _stable_hashes(list(self.board.squares) + list(sets.values()) + self.players)

    def _fit(self, rules):
        """Give the board gopoly's numbers, after checking that gopoly's
        board has Monopyly's squares, square for square."""
        board = rules.get("board") or []
        squares = self.board.squares
        if len(board) != len(squares):
            raise ValueError("the board has %d squares; Monopyly AIs need Monopyly's %d" % (len(board), len(squares)))
        house_cost = dict((g["name"], g.get("house_cost", 0)) for g in rules.get("groups") or [])
        group_of_set = {}
        for i, (sq, g) in enumerate(zip(squares, board)):
            want = KINDS.get(type(sq).__name__, "action")
            if g.get("kind") != want:
                raise ValueError("square %d (%s) is a %s; Monopyly's %s is a %s" % (i, g.get("name"), g.get("kind"), sq.name, want))
            if want in OWNABLE:
                sq.price = g["price"]
            if want == "street":
                sq.rents = list(g.get("rent") or sq.rents)
                sq.house_price = house_cost.get(g.get("group"), sq.house_price)
                if group_of_set.setdefault(id(sq.property_set), g.get("group")) != g.get("group"):
                    raise ValueError("%s is in gopoly's group %s, apart from the rest of Monopyly's %s set"
                                     % (g.get("name"), g.get("group"), sq.property_set))
            elif type(sq).__name__ == "Tax":
                sq.tax = _tax(g.get("do", ""), sq.tax)
        if len(set(group_of_set.values())) != len(group_of_set):
            raise ValueError("gopoly's colour groups join two of Monopyly's sets")

    def index(self, square):
        """A square's place on the board; a name stands for its first square."""
        if isinstance(square, str):
            return self.board.get_index(square)
        return self._index[id(square)]

    def square(self, index):
        return self.board.squares[index]

    def player(self, seat):
        return self.players[seat] if 0 <= seat < len(self.players) else None

    def refresh(self, state, game_ms=None):
        """Bring every object to a gopoly view (wire.State) in place."""
        owners = state["owners"]
        houses = state["houses"]
        mortgaged = set(state.get("mortgaged") or [])
        for i, sq in self.properties:
            o = owners[i]
            sq.owner = self.players[o] if 0 <= o < len(self.players) else None
            sq.is_mortgaged = i in mortgaged
            if hasattr(sq, "number_of_houses"):
                sq.number_of_houses = houses[i]  # 5 is a hotel in both
        held = {}
        for seat, (pl, pb) in enumerate(zip(self.players, state["players"])):
            st = pl.state
            if pb.get("bankrupt"):
                self._retire(pl)
                continue
            st.cash = pb["cash"]
            st.square = pb["position"]
            st.is_in_jail = bool(pb.get("in_jail"))
            # Monopyly counts the turns begun in jail, this one included
            # from its start; gopoly counts the failed rolls.
            turns = pb.get("jail_turns", 0)
            if st.is_in_jail and state.get("current") == seat and state.get("phase") in ("before_roll", "jail"):
                turns += 1
            st.number_of_turns_in_jail = turns if st.is_in_jail else 0
            cards = []
            for deck in pb.get("jail_card_decks") or []:
                n = held.get(deck, 0)
                held[deck] = n + 1
                cards.append(self._jail_card(deck, n))
            if st.get_out_of_jail_free_cards != cards:
                st.get_out_of_jail_free_cards[:] = cards
            props = set(sq for i, sq in self.properties if owners[i] == seat)
            if st.properties != props:
                st.properties.clear()
                st.properties.update(props)
        self._decks(held)
        active = [pl for pl in self.players if pl not in self.state.bankrupt_players]
        if self.state.players != active:
            self.state.players[:] = active
        owned = self.board.get_owned_sets(True)
        unmortgaged = self.board.get_owned_sets(False)
        for pl in active:
            pl.state.owned_sets = owned.get(pl, set())
            pl.state.owned_unmortgaged_sets = unmortgaged.get(pl, set())
        if game_ms is not None:
            self.me.state.ai_processing_seconds_remaining = game_ms / 1000.0

    def _retire(self, pl):
        """A bankrupt player as Monopyly leaves one: out of the list of
        players, owning nothing, with cash and square -1."""
        if pl in self.state.bankrupt_players:
            return
        st = pl.state
        st.cash, st.square = -1, -1
        st.is_in_jail, st.number_of_turns_in_jail = False, 0
        st.properties.clear()
        st.get_out_of_jail_free_cards[:] = []
        st.owned_sets, st.owned_unmortgaged_sets = set(), set()
        self.state.bankrupt_players.append(pl)

    def _jail_card(self, deck, n):
        """The n-th Get Out of Jail Free card of a deck held by players:
        the deck's own card object if it has one, kept for the game."""
        cards = self._cards.setdefault(deck, [])
        while len(cards) <= n:
            d = self._deck(deck)
            own = [c for c in getattr(d, "cards", []) if isinstance(c, self.GetOutOfJailFree) and c not in cards]
            cards.append(own[0] if own else self.GetOutOfJailFree(d))
        return cards[n]

    def _deck(self, name):
        # gopoly's decks are "chance" and "community_chest", Monopyly's
        # board attributes chance_deck and community_chest_deck.
        return getattr(self.board, name + "_deck", None)

    def _decks(self, held):
        """Cards held are out of their deck, the others back in it, as
        Monopyly keeps them."""
        for deck, cards in self._cards.items():
            d = self._deck(deck)
            if d is None:
                continue
            for n, card in enumerate(cards):
                out = n < held.get(deck, 0)
                if out and card in d.cards:
                    d.cards.remove(card)
                elif not out and card not in d.cards:
                    d.cards.append(card)

    def turn_started(self, seat):
        pl = self.player(seat)
        if pl is not None:
            pl.state.turns_played += 1


def _stable_hash(obj):
    return obj.__dict__.get("_gopoly_hash", id(obj) >> 4)


def _stable_hashes(objects):
    """Number objects so that sets of them iterate in the same order in
    every run. Monopyly's squares, sets and players hash by address, so a
    set of them (a player's properties, its owned sets) iterated in a
    different order from one process to the next, and an AI that picks
    from one (BaldrickAI's random.choice(list(victim.state.properties)))
    played a different game from the same seed. Classes that define
    their own hash, or none, are left alone; equality stays identity."""
    for n, obj in enumerate(objects):
        cls = type(obj)
        if not hasattr(obj, "__dict__"):
            continue
        if cls.__hash__ is object.__hash__:
            cls.__hash__ = _stable_hash
        if cls.__hash__ is _stable_hash:
            obj._gopoly_hash = n


def _tax(program, default):
    """The amount of a gopoly "TAX n ..." square program."""
    words = program.split()
    try:
        return int(words[1]) if len(words) > 1 and words[0] == "TAX" else default
    except ValueError:
        return default
