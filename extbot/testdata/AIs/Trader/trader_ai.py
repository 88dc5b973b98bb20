from monopyly import *
import time


class TraderAI(PlayerAIBase):
    """Buys what it can afford, bids to the price, builds on its sets,
    proposes deals that complete its sets, accepts deals it is paid for,
    and counts the notifications it gets (written to stderr at the end,
    where gopoly's tests read them). Like some contest entries, it writes
    a file where it runs: trader.txt, a line a game."""

    def __init__(self):
        self.calls = {}
        self.started = time.clock()  # an old idiom the host patches

    def count(self, name):
        self.calls[name] = self.calls.get(name, 0) + 1

    def get_name(self):
        return "Trader"

    def start_of_game(self):
        self.count("start_of_game")
        with open("trader.txt", "a") as f:
            f.write("a game\n")

    def start_of_turn(self, game_state, player):
        self.count("start_of_turn")
        assert len(game_state.board.squares) == Board.NUMBER_OF_SQUARES

    def player_landed_on_square(self, game_state, square, player):
        self.count("player_landed_on_square")
        assert game_state.board.get_square_by_index(game_state.board.get_index(square.name)).name == square.name

    def landed_on_unowned_property(self, game_state, player, property):
        self.count("landed_on_unowned_property")
        assert property.owner is None
        if player.state.cash - property.price > 150:
            return PlayerAIBase.Action.BUY
        return PlayerAIBase.Action.DO_NOT_BUY

    def money_taken(self, player, amount):
        self.count("money_taken")

    def money_given(self, player, amount):
        self.count("money_given")

    def money_will_be_taken(self, player, amount):
        self.count("money_will_be_taken")

    def got_get_out_of_jail_free_card(self):
        self.count("got_get_out_of_jail_free_card")

    def property_offered_for_auction(self, game_state, player, property):
        self.count("property_offered_for_auction")
        return min(property.price, max(0, player.state.cash - 200))

    def auction_result(self, status, property, player, amount_paid):
        self.count("auction_result")

    def build_houses(self, game_state, player):
        self.count("build_houses")
        for s in player.state.owned_unmortgaged_sets:
            if not s.can_build_houses:
                continue
            cost = s.house_price * s.number_of_properties
            if player.state.cash - cost > 300:
                return [(p, 1) for p in s.properties]
        return []

    def sell_houses(self, game_state, player):
        self.count("sell_houses")
        return []

    def mortgage_properties(self, game_state, player):
        self.count("mortgage_properties")
        return [p for p in player.state.properties
                if not p.is_mortgaged and p.property_set not in player.state.owned_sets
                and not (isinstance(p, Street) and p.number_of_houses > 0)][:2]

    def unmortgage_properties(self, game_state, player):
        self.count("unmortgage_properties")
        return [p for p in player.state.properties if p.is_mortgaged and player.state.cash > 1000][:1]

    def get_out_of_jail(self, game_state, player):
        self.count("get_out_of_jail")
        if player.state.number_of_get_out_of_jail_free_cards:
            return PlayerAIBase.Action.PLAY_GET_OUT_OF_JAIL_FREE_CARD
        return PlayerAIBase.Action.BUY_WAY_OUT_OF_JAIL

    def propose_deal(self, game_state, player):
        self.count("propose_deal")
        for s in set(p.property_set for p in player.state.properties):
            if s.set_enum in (PropertySet.STATION, PropertySet.UTILITY):
                continue
            missing = [p for p in s.properties if p.owner is not player]
            if len(missing) == 1 and missing[0].owner is not None:
                return DealProposal(propose_to_player=missing[0].owner, properties_wanted=[missing[0]],
                                    maximum_cash_offered=missing[0].price * 2)
        return None

    def deal_proposed(self, game_state, player, deal_proposal):
        self.count("deal_proposed")
        if deal_proposal.properties_wanted and not deal_proposal.properties_offered:
            return DealResponse(DealResponse.Action.ACCEPT,
                                minimum_cash_wanted=3 * sum(p.price for p in deal_proposal.properties_wanted))
        return DealResponse(DealResponse.Action.REJECT)

    def deal_result(self, deal_info):
        self.count("deal_result")

    def deal_completed(self, deal_result):
        self.count("deal_completed")

    def player_went_bankrupt(self, player):
        self.count("player_went_bankrupt")

    def game_over(self, winner, maximum_rounds_played):
        self.count("game_over")
        Logger.log("calls " + " ".join("%s=%d" % kv for kv in sorted(self.calls.items())), Logger.ERROR)

    def ai_error(self, message):
        self.count("ai_error")
