class DealResponse(object):
    """The answer to a proposal, with the answering side's own cash limits."""

    class Action(object):
        ACCEPT = 0
        REJECT = 1

    def __init__(self, action, maximum_cash_offered=0, minimum_cash_wanted=0):
        self.action = action
        self.maximum_cash_offered = maximum_cash_offered
        self.minimum_cash_wanted = minimum_cash_wanted
