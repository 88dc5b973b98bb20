class Deck(object):
    """A deck's cards."""

    def __init__(self):
        self.cards = []

    @property
    def number_of_cards(self):
        return len(self.cards)
