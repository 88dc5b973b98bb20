from monopyly import *


class MortgagerAI(PlayerAIBase):
    """Buys whatever it lands on, bids $50 over the price at auction and,
    as BaldrickAI does, pays for either by mortgaging: told that money
    will be taken, it names its dearest unmortgaged properties until
    their mortgages cover what it lacks."""

    def __init__(self):
        self.to_mortgage = []

    def get_name(self):
        return "Mortgager"

    def landed_on_unowned_property(self, game_state, player, property):
        return PlayerAIBase.Action.BUY

    def property_offered_for_auction(self, game_state, player, property):
        return property.price + 50

    def money_will_be_taken(self, player, amount):
        short = amount - player.state.cash
        self.to_mortgage = []
        for p in sorted(player.state.properties, key=lambda p: -p.price):
            if short <= 0:
                break
            if not p.is_mortgaged:
                self.to_mortgage.append(p)
                short -= p.mortgage_value

    def mortgage_properties(self, game_state, player):
        return self.to_mortgage


class OverreachAI(MortgagerAI):
    """Says it buys, but mortgages nothing to pay for it, and bids
    nothing at auction."""

    def get_name(self):
        return "Overreach"

    def property_offered_for_auction(self, game_state, player, property):
        return 0

    def mortgage_properties(self, game_state, player):
        return []
