class DealProposal(object):
    """A deal one player proposes to another: properties (Property
    objects) each way, and the cash limits, which the other side does not
    see: the most the proposer pays, or the least it takes."""

    def __init__(self, propose_to_player=None, properties_offered=None, properties_wanted=None,
                 maximum_cash_offered=0, minimum_cash_wanted=0):
        self.propose_to_player = propose_to_player
        self.properties_offered = properties_offered or []
        self.properties_wanted = properties_wanted or []
        self.maximum_cash_offered = maximum_cash_offered
        self.minimum_cash_wanted = minimum_cash_wanted
        self.proposed_by_player = None

    def __str__(self):
        return "Offered: {0}. Wanted: {1}".format(self.properties_offered, self.properties_wanted)

    @property
    def deal_proposed(self):
        """Whether any property changes hands."""
        return bool(self.properties_offered or self.properties_wanted)
