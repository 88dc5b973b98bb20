"""An example gopoly player in Python: plain rules over the legal options.

    gopoly play --bots 'exec:python3 sdk/python/example_bot.py',baseline,baseline,baseline

It buys while it keeps a reserve, bids up to the printed price, builds
and lifts mortgages when rich, raises cash by mortgaging before selling,
leaves jail early, accepts sealed deals only when paid well, and says
a word now and then.
"""

import os
import sys

# gopoly_bot.py beside this file when there is one (the checkout), else
# the installed module.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gopoly_bot  # noqa: E402

RESERVE = 200


class Example(gopoly_bot.Bot):
    name = "example"
    # It reads the decision, the legal actions and the view: gopoly need
    # not send the rest.
    omit = ("text", "notation", "trade", "events")

    def decide(self, d):
        kind = d.kind
        if kind == "buy":
            price = d.decision["amount"]
            if d.cash - price >= RESERVE:
                return gopoly_bot.Answer({"kind": "buy"}, speech="I'll take it.",
                                         thought="%d leaves %d" % (price, d.cash - price))
            return {"kind": "decline"}
        if kind == "bid":
            price = d.square(d.decision["square"])["price"]
            rng = d.bid_range
            if rng and rng[0] <= price and d.cash - rng[0] >= RESERVE:
                return {"kind": "bid", "amount": rng[0]}
            return {"kind": "drop_out"}
        if kind == "jail":
            return d.first("use_jail_card", "pay_jail_fine", "roll_for_doubles")
        if kind == "raise_cash":
            return d.first("mortgage", "sell_building", "declare_bankruptcy", "continue")
        if kind == "trade_response":
            acc = d.options.get("accept")
            if acc:  # a sealed deal: ask for a good price
                return {"kind": "accept_trade", "limit": min(acc["max"], 500)}
            return {"kind": "reject_trade"}
        if kind == "manage" and d.cash > 3 * RESERVE:
            act = d.first("unmortgage", "build")
            if act:
                return act
        return d.first("continue", "keep_mortgaged", "move") or d.actions[0]


if __name__ == "__main__":
    gopoly_bot.run(Example())
