from monopyly import *


class MortgagerAI(PlayerAIBase):
    """Buys whatever it lands on and, as BaldrickAI does, pays for it by
    mortgaging: told that money will be taken, it names its dearest
    unmortgaged properties until their mortgages cover what it lacks."""

    def __init__(self):
        self.to_mortgage = []

    def get_name(self):
        return "Mortgager"

    def landed_on_unowned_property(self, game_state, player, property):
        return PlayerAIBase.Action.BUY

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
    """Says it buys, but mortgages nothing to pay for it."""

    def get_name(self):
        return "Overreach"

    def mortgage_properties(self, game_state, player):
        return []
