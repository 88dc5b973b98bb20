class GetOutOfJailFree(object):
    """A Get Out of Jail Free card, which knows its deck."""

    def __init__(self, deck=None):
        self.deck = deck

    def put_back_in_deck(self):
        if self.deck is not None:
            self.deck.cards.append(self)
