class DealResult(object):
    """A deal done, as every player is told of it. The cash is negative
    when it went from the proposee to the proposer."""

    def __init__(self):
        self.proposer = None
        self.proposee = None
        self.properties_transferred_to_proposer = []
        self.properties_transferred_to_proposee = []
        self.cash_transferred_from_proposer_to_proposee = 0
