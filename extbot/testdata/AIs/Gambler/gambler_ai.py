from monopyly import *
import random


class GamblerAI(PlayerAIBase):
    """Leaves its choices to Python's random, as several contest entries
    do: whether to buy, what to bid, whether to pay its way out of jail.
    Seeded from the seat's seed, it plays the same game twice."""

    def get_name(self):
        return "Gambler"

    def landed_on_unowned_property(self, game_state, player, property):
        if random.random() < 0.5:
            return PlayerAIBase.Action.BUY
        return PlayerAIBase.Action.DO_NOT_BUY

    def property_offered_for_auction(self, game_state, player, property):
        return random.randint(0, property.price)

    def get_out_of_jail(self, game_state, player):
        if random.random() < 0.5:
            return PlayerAIBase.Action.BUY_WAY_OUT_OF_JAIL
        return PlayerAIBase.Action.STAY_IN_JAIL
