# A Monopyly-style AI with the faults contest entries had: it prints to
# stdout, raises, and answers with things the rules refuse. The host must
# keep it at the table.
from monopyly import *


class BrokenAI(PlayerAIBase):
    def get_name(self):
        return "Broken"

    def start_of_turn(self, game_state, player):
        print("a print to stdout must not break the protocol")

    def landed_on_unowned_property(self, game_state, player, property):
        raise RuntimeError("a bug")

    def property_offered_for_auction(self, game_state, player, property):
        return "lots"

    def build_houses(self, game_state, player):
        return [(game_state.board.get_square_by_name(Square.Name.MAYFAIR), 5)]

    def get_out_of_jail(self, player):  # the early signature
        return PlayerAIBase.Action.PLAY_GET_OUT_OF_JAIL_FREE_CARD

    def propose_deal(self, game_state, player):
        return DealProposal(propose_to_player=player, properties_wanted=[game_state.board.squares[39]])

    def deal_proposed(self, game_state, player, deal_proposal):
        return 42
