from .deck import Deck
from .get_out_of_jail_free import GetOutOfJailFree


class CommunityChestDeck(Deck):
    def __init__(self):
        super().__init__()
        self.cards.append(GetOutOfJailFree(self))
