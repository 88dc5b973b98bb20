"""Play a Monopyly contest AI, unchanged, at a gopoly table.

    python3 host.py PATH[#CLASS]

PATH is the AI's package directory (as in Monopyly's AIs/ folder) or a
.py file; CLASS picks one of several PlayerAIBase subclasses. gopoly runs
this for a seat named ``monopyly:PATH``. The host speaks gopoly's bot
protocol (via gopoly_bot) on stdin and stdout, keeps a Monopyly GameState
(the ``monopyly`` shim package beside this file) refreshed from every
view, and turns Monopyly's calls into gopoly's decisions:

- buy: landed_on_unowned_property; bid: property_offered_for_auction,
  asked once per auction and played as a proxy bid in gopoly's ascending
  auction (the winner pays about the second-highest bid, as Monopyly's
  sealed second-price auction has it);
- manage before the roll: propose_deal (three times a turn, while
  proposals are left), unmortgage_properties, build_houses (built a
  house at a time, evenly; what the rules refuse is reported by
  ai_error and the rest dropped), then the roll;
- jail: get_out_of_jail; raise_cash: money_will_be_taken, sell_houses,
  mortgage_properties, then, if that was not enough, sales and mortgages
  in board order (gopoly allows bankruptcy only once everything is
  raised); trade_response: deal_proposed, with the sealed limits;
- events: start_of_turn, player_landed_on_square, auction_result,
  money_given/money_taken, got_get_out_of_jail_free_card, deal_result,
  deal_completed, player_went_bankrupt, game_over.

Answers the rules refuse never reach gopoly: the host checks them
against the legal options first, tells the AI (ai_error) and answers as
Monopyly's defaults do. Anything the AI prints goes to stderr, which
gopoly keeps in its log.
"""

import importlib.util
import inspect
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)                    # the monopyly shim
sys.path.insert(1, os.path.dirname(HERE))   # gopoly_bot

# Old idioms of the contest's AIs (Python 3.3 days).
if not hasattr(time, "clock"):
    time.clock = time.perf_counter

import gopoly_bot  # noqa: E402
import monopyly  # noqa: E402
from monopyly import (Board, DealProposal, DealResponse, DealResult, GameState,  # noqa: E402
                      Player, PlayerAIBase, Property, PropertySet, Street)

Action = PlayerAIBase.Action
DealInfo = PlayerAIBase.DealInfo


def load_ai(spec):
    """An instance of the PlayerAIBase subclass at PATH[#CLASS]."""
    path, _, cls_name = spec.partition("#")
    path = os.path.abspath(path)
    if os.path.isdir(path):
        init = os.path.join(path, "__init__.py")
        if not os.path.exists(init):
            raise SystemExit("monopyly host: %s has no __init__.py: not an AI package" % path)
        name = "monopyly_ai_" + "".join(c if c.isalnum() else "_" for c in os.path.basename(path))
        mspec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[path])
    elif os.path.isfile(path):
        name = "monopyly_ai_" + os.path.splitext(os.path.basename(path))[0]
        mspec = importlib.util.spec_from_file_location(name, path)
    else:
        raise SystemExit("monopyly host: no AI at %s" % path)
    module = importlib.util.module_from_spec(mspec)
    sys.modules[name] = module
    mspec.loader.exec_module(module)
    found = []
    for member_name, member in inspect.getmembers(module, inspect.isclass):
        if member is not PlayerAIBase and issubclass(member, PlayerAIBase):
            if not cls_name or member_name == cls_name:
                found.append(member)
    if not found:
        raise SystemExit("monopyly host: no PlayerAIBase subclass%s in %s" % (" " + cls_name if cls_name else "", path))
    if len(found) > 1:
        sys.stderr.write("monopyly host: %d AIs in %s (%s); playing %s (pick one with PATH#CLASS)\n"
                         % (len(found), path, ", ".join(c.__name__ for c in found), found[0].__name__))
    return found[0]()


class Seat(PlayerAIBase):
    """Another seat of the table, as the AI sees it."""

    def __init__(self, name):
        self.name = name

    def get_name(self):
        return self.name


class Host(gopoly_bot.Bot):
    def __init__(self, ai):
        self.ai = ai
        self.name = "monopyly:" + self.safe_name()
        self.started = False

    def safe_name(self):
        try:
            return str(self.ai.get_name())
        except Exception:
            return type(self.ai).__name__

    # --- calling the AI -------------------------------------------------

    def call(self, method, *args, **kw):
        """Call the AI, reporting what it raises (ai_error) instead of failing."""
        default = kw.get("default")
        fn = getattr(self.ai, method, None)
        if fn is None:
            return default
        try:
            return fn(*args)
        except Exception as e:  # an AI's bug must not stop the game
            traceback.print_exc(file=sys.stderr)
            self.error("%s raised %s: %s" % (method, type(e).__name__, e))
            return default

    def error(self, message):
        sys.stderr.write("monopyly host: %s\n" % message)
        fn = getattr(self.ai, "ai_error", None)
        if fn is not None:
            try:
                fn(message)
            except Exception:
                traceback.print_exc(file=sys.stderr)

    # --- the game ---------------------------------------------------------

    def start(self, game):
        self.seat = game["seat"]
        self.rules = game["rules"]
        self.sealed = self.rules.get("deal_protocol") == "sealed"
        try:
            self.board = Board(self.rules)
        except ValueError as e:
            raise SystemExit("monopyly host: these rules do not fit Monopyly: %s" % e)
        self.state = GameState(self.board)
        self.players = [Player(self.ai if i == self.seat else Seat(n), i, self.board)
                        for i, n in enumerate(game["names"])]
        self.state.players = list(self.players)
        self.me = self.players[self.seat]
        self.manage_key = self.debt_key = self.auction_key = None
        self.queue = []
        self.started = True
        self.call("start_of_game")

    def refresh(self, view):
        """Bring the GameState to the view, keeping every object."""
        for i, sq in enumerate(view["board"]):
            p = self.board.squares[i]
            if isinstance(p, Property):
                p.owner = self.players[sq["owner"]] if sq["owner"] >= 0 else None
                p.is_mortgaged = sq["mortgaged"]
                if isinstance(p, Street):
                    p.number_of_houses = 5 if sq["hotel"] else sq["houses"]
        for ps in view["players"]:
            pl = self.players[ps["seat"]]
            st = pl.state
            st.cash = ps["cash"]
            st.square = ps["position"]
            st.is_in_jail = ps["in_jail"]
            st.number_of_turns_in_jail = ps["jail_turns"]
            st.get_out_of_jail_free_cards = list(ps["jail_card_decks"])
            st.properties = set(self.board.squares[i] for i in ps["properties"])
            sets = set(p.property_set for p in st.properties)
            st.owned_sets = set(s for s in sets if s.owner is pl)
            st.owned_unmortgaged_sets = set(s for s in st.owned_sets if s.all_properties_are_unmortgaged)
            if ps["bankrupt"] and pl in self.state.players:
                self.state.players.remove(pl)
                self.state.bankrupt_players.append(pl)

    def player(self, seat):
        return self.players[seat] if 0 <= seat < len(self.players) else None

    def events(self, events):
        """Tell the AI what happened, as Monopyly's notifications."""
        gs, me = self.state, self.me
        for e in events:
            k, p = e["kind"], e.get("player", -1)
            if k == "turn_start":
                self.call("start_of_turn", gs, self.player(p))
            elif k == "roll_resolved" and self.player(p):
                self.call("player_landed_on_square", gs, self.board.squares[e["square"]], self.player(p))
            elif k == "auction_won":
                self.call("auction_result", Action.AUCTION_SUCCEEDED, self.board.squares[e["square"]],
                          self.player(p), e["amount"])
            elif k == "auction_unsold":
                self.call("auction_result", Action.AUCTION_FAILED, self.board.squares[e["square"]], None, 0)
            elif k in ("rent", "pay"):
                if p == self.seat:
                    self.call("money_taken", me, e["amount"])
                elif e.get("to") == self.seat:
                    self.call("money_given", me, e["amount"])
            elif k == "salary" and p == self.seat:
                self.call("money_given", me, e["amount"])
            elif k == "card" and p == self.seat and "jail" in e.get("card_id", "").lower() \
                    and "free" in (e.get("card_id", "") + e.get("card_text", "")).lower():
                self.call("got_get_out_of_jail_free_card")
            elif k == "bankrupt":
                self.call("player_went_bankrupt", self.player(p))
            elif k == "trade_accepted":
                self.traded(e, True)
            elif k == "trade_rejected":
                self.traded(e, False)
            elif k == "game_over":
                self.call("game_over", self.player(p), e.get("round_limit", False))

    def traded(self, e, done):
        t = e["trade"]
        proposer, proposee = t["from"], t["to"]
        if done:
            r = DealResult()
            r.proposer, r.proposee = self.player(proposer), self.player(proposee)
            r.properties_transferred_to_proposer = [self.board.squares[i] for i in t["get"]["squares"]]
            r.properties_transferred_to_proposee = [self.board.squares[i] for i in t["give"]["squares"]]
            r.cash_transferred_from_proposer_to_proposee = t["give"]["cash"] - t["get"]["cash"]
            if self.seat in (proposer, proposee):
                self.call("deal_result", DealInfo.SUCCEEDED)
            self.call("deal_completed", r)
        elif self.seat in (proposer, proposee):
            info = DealInfo.DEAL_REJECTED
            if e.get("limits_missed") and self.seat == proposer:
                info = DealInfo.OFFERED_TOO_LITTLE_MONEY if t["give"]["cash"] > 0 else DealInfo.ASKED_FOR_TOO_MUCH_MONEY
            self.call("deal_result", info)

    def end(self, msg):
        if self.started:
            self.events(msg.get("events") or [])
        self.started = False

    # --- decisions ------------------------------------------------------

    def decide(self, d):
        self.refresh(d.view)
        self.events(d.events)
        handler = getattr(self, "on_" + d.kind, None)
        act = handler(d) if handler else None
        if act is None or not self.legal(d, act):
            if act is not None:
                self.error("the rules refuse %s at %s; Monopyly's default instead" % (act, d.kind))
            act = d.first("continue", "decline", "drop_out", "roll_for_doubles", "reject_trade",
                          "keep_mortgaged", "move") or d.actions[0]
        return act

    def legal(self, d, act):
        """Whether act is among the listed legal answers, or a bid, limit or
        offer within the options' bounds."""
        k = act["kind"]
        if k == "bid":
            r = d.bid_range
            return r is not None and r[0] <= act["amount"] <= r[1]
        if k == "accept_trade" and "limit" in act:
            a = d.options.get("accept")
            return a is not None and a["min"] <= act["limit"] <= a["max"]
        if k == "propose_trade":
            return self.offer_ok(d, act["offer"])
        return act in d.actions

    def offer_ok(self, d, offer):
        t = d.options.get("trade")
        if not t or t.get("kind") != "propose_trade" or t.get("proposals_left", 0) <= 0:
            return False
        partner = [p for p in t["partners"] if p["seat"] == offer["to"]]
        give, get = offer["give"], offer["get"]
        return bool(partner) and (give["squares"] or get["squares"]) \
            and set(give["squares"]) <= set(t["give"]["squares"]) \
            and set(get["squares"]) <= set(partner[0]["get"]["squares"]) \
            and 0 <= give["cash"] <= t["give"]["max_cash"] and 0 <= get["cash"] <= partner[0]["get"]["max_cash"]

    def prop(self, index):
        return self.board.squares[index]

    def on_buy(self, d):
        ans = self.call("landed_on_unowned_property", self.state, self.me, self.prop(d.decision["square"]),
                        default=Action.DO_NOT_BUY)
        return {"kind": "buy"} if ans == Action.BUY else {"kind": "decline"}

    def on_bid(self, d):
        key = (d.view["turn"], d.decision["square"])
        if key != self.auction_key:
            self.auction_key = key
            most = self.call("property_offered_for_auction", self.state, self.me, self.prop(d.decision["square"]), default=0)
            try:
                self.most = int(most or 0)
            except (TypeError, ValueError):
                self.error("property_offered_for_auction returned %r, not a whole number" % (most,))
                self.most = 0
        r = d.bid_range
        if r and 0 < r[0] <= self.most:
            return {"kind": "bid", "amount": r[0]}
        return {"kind": "drop_out"}

    def on_jail(self, d):
        fn = getattr(self.ai, "get_out_of_jail", None)
        # Early contest AIs take (player), later ones (game_state, player).
        args = (self.me,)
        if fn is not None:
            try:
                if len(inspect.signature(fn).parameters) >= 2:
                    args = (self.state, self.me)
            except (TypeError, ValueError):
                pass
        ans = self.call("get_out_of_jail", *args, default=Action.STAY_IN_JAIL)
        if ans == Action.BUY_WAY_OUT_OF_JAIL:
            return d.first("pay_jail_fine")
        if ans == Action.PLAY_GET_OUT_OF_JAIL_FREE_CARD:
            return d.first("use_jail_card")
        return d.first("roll_for_doubles")

    def on_manage(self, d):
        if d.decision["phase"] != "before_roll" or d.view["current"] != self.seat:
            return d.first("continue")
        key = d.view["turn"]
        if key != self.manage_key:
            self.manage_key, self.stage, self.deals, self.queue = key, "deals", 0, []
        while True:
            while self.queue:
                act = self.queue.pop(0)
                if self.legal(d, act):
                    return act
                self.error("the rules refuse %s now; the rest of that request is dropped" % act)
                self.queue = [a for a in self.queue if a["kind"] != act["kind"]]
            if self.stage == "deals":
                if self.deals < 3 and d.decision.get("proposals_left", 0) > 0:
                    self.deals += 1
                    act = self.propose(d)
                    if act is not None:
                        return act
                    continue
                self.stage = "unmortgage"
                for p in self.call("unmortgage_properties", self.state, self.me, default=[]) or []:
                    self.queue.append({"kind": "unmortgage", "square": self.index_of(p)})
                continue
            if self.stage == "unmortgage":
                self.stage = "build"
                self.queue = self.spread("build", self.call("build_houses", self.state, self.me, default=[]))
                continue
            return d.first("continue")

    def spread(self, kind, pairs):
        """[(street, n), ...] as single builds or sales, round by round, so
        that the set stays even as it goes."""
        try:
            pairs = [(self.index_of(p), int(n)) for p, n in (pairs or [])]
        except (TypeError, ValueError):
            self.error("%s: want a list of (street, number) pairs, got %r" % (kind, pairs))
            return []
        out = []
        for r in range(max([n for _, n in pairs] + [0])):
            out.extend({"kind": kind, "square": i} for i, n in pairs if n > r)
        return out

    def index_of(self, p):
        """A Property (or, in early AIs, its name) as a square index."""
        if isinstance(p, Property):
            return p.index
        return self.board.get_index(p)[0]

    def propose(self, d):
        prop = self.call("propose_deal", self.state, self.me)
        if prop is None:
            return None
        try:
            to = prop.propose_to_player
            if to is None:
                to = getattr(prop, "propose_to_player_number", None)
            seat = to.state.player_number if isinstance(to, Player) else int(to)
            cash_out = int(prop.maximum_cash_offered or 0)
            cash_in = int(prop.minimum_cash_wanted or 0)
            offer = {"to": seat,
                     "give": {"squares": sorted(self.index_of(p) for p in prop.properties_offered or []), "cash": cash_out},
                     "get": {"squares": sorted(self.index_of(p) for p in prop.properties_wanted or []), "cash": cash_in}}
        except Exception as e:
            self.error("propose_deal returned a proposal that cannot be read: %s" % e)
            self.call("deal_result", DealInfo.INVALID_DEAL_PROPOSED)
            return None
        act = {"kind": "propose_trade", "offer": offer}
        t = d.options.get("trade") or {}
        if self.sealed and t:
            # A sealed limit above what the proposer could pay means "up
            # to all I have": the most the rules let it name.
            offer["give"]["cash"] = min(cash_out, t["give"]["max_cash"])
        if not self.offer_ok(d, offer):
            self.error("propose_deal: the rules refuse the deal %s" % offer)
            self.call("deal_result", DealInfo.INVALID_DEAL_PROPOSED)
            return None
        return act

    def on_raise_cash(self, d):
        key = (d.view["turn"], d.decision["square"], d.decision["amount"], d.decision["counterparty"])
        if key != self.debt_key:
            self.debt_key = key
            self.call("money_will_be_taken", self.me, d.decision["amount"])
            self.queue = self.spread("sell_building", self.call("sell_houses", self.state, self.me, default=[]))
            for p in self.call("mortgage_properties", self.state, self.me, default=[]) or []:
                self.queue.append({"kind": "mortgage", "square": self.index_of(p)})
        while self.queue:
            act = self.queue.pop(0)
            if self.legal(d, act):
                return act
            self.error("the rules refuse %s now" % act)
        # What the AI raised was not enough: gopoly allows bankruptcy only
        # once everything is raised.
        return d.first("mortgage", "sell_building", "declare_bankruptcy")

    def on_trade_response(self, d):
        o = d.decision["offer"]
        prop = DealProposal(propose_to_player=self.me,
                            properties_offered=[self.prop(i) for i in o["give"]["squares"]],
                            properties_wanted=[self.prop(i) for i in o["get"]["squares"]])
        prop.proposed_by_player = self.player(o["from"])
        r = self.call("deal_proposed", self.state, self.me, prop, default=DealResponse(DealResponse.Action.REJECT))
        if r is None or getattr(r, "action", DealResponse.Action.REJECT) != DealResponse.Action.ACCEPT:
            return d.first("reject_trade")
        acc = d.options.get("accept")
        if not acc:
            return d.first("accept_trade")
        try:
            limit = int(r.minimum_cash_wanted or 0) - int(r.maximum_cash_offered or 0)
        except (TypeError, ValueError):
            self.error("deal_proposed: cash limits that are not numbers")
            return d.first("reject_trade")
        return {"kind": "accept_trade", "limit": max(acc["min"], min(acc["max"], limit))}

    def on_mortgaged_transfer(self, d):
        return d.first("keep_mortgaged", "lift_mortgage")

    def on_movement(self, d):
        # Monopyly has no speed die: the first legal move.
        return d.first("move")


def main(argv):
    if len(argv) != 1:
        raise SystemExit("usage: host.py PATH[#CLASS]  (a Monopyly AI package directory or .py file)")
    # The protocol has stdout to itself: whatever the AI prints goes to
    # stderr, into gopoly's log.
    protocol_out, sys.stdout = sys.stdout, sys.stderr
    host = Host(load_ai(argv[0]))
    gopoly_bot.serve(host, sys.stdin, protocol_out)


if __name__ == "__main__":
    main(sys.argv[1:])
