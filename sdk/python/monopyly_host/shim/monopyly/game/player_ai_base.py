from .deal_response import DealResponse


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
