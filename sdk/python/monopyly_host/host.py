"""Play a Monopyly contest AI, unchanged, at a gopoly table.

    python3 host.py [--pkg DIR] [--list] PATH[#CLASS]

PATH is the AI's package directory (as in Monopyly's AIs/ folder) or a
.py file; CLASS picks one of several PlayerAIBase subclasses. gopoly runs
this for a seat named ``monopyly:PATH``.

The AI sees the game through a ``monopyly`` package: the real one when
the AI lies in a Monopyly checkout (a ``monopyly`` package directory in
one of the directories above PATH) or when --pkg names one, else
gopoly's stand-in (``shim/monopyly``). --list prints the names of the
AI classes at PATH and exits. compat patches what the 2014 code
needs of today's Python; mirror keeps that package's objects in step
with gopoly's game. The host speaks gopoly's bot protocol (via
gopoly_bot) on stdin and stdout and turns Monopyly's calls into gopoly's
decisions:

- buy: landed_on_unowned_property (under raise_to_buy, a price above the
  cash is announced by money_will_be_taken, and sell_houses and
  mortgage_properties name what raises it; if that falls short, the
  property goes to auction); bid: property_offered_for_auction, asked
  once per auction and played as a proxy bid in gopoly's ascending
  auction (the winner pays about the second-highest bid, as Monopyly's
  sealed second-price auction has it, and raises it as a debt);
- manage before the roll: propose_deal (three times a turn, while
  proposals are left), unmortgage_properties, build_houses (built a
  house at a time, evenly), then the roll. As in Monopyly, what the
  player cannot pay for is first announced by money_will_be_taken, with
  sell_houses and mortgage_properties to raise the cash, and dropped if
  the cash is still short; a step the rules refuse is reported by
  ai_error and the rest of that request dropped;
- jail: get_out_of_jail; raise_cash: money_will_be_taken, up to three
  deals, sell_houses, mortgage_properties, then, if that was not
  enough, sales and mortgages in board order (gopoly allows bankruptcy
  only once everything is raised); trade_response: deal_proposed, with
  the sealed limits;
- events: start_of_turn, player_landed_on_square, auction_result,
  money_given/money_taken, got_get_out_of_jail_free_card, deal_result,
  deal_completed, player_went_bankrupt, game_over.

gopoly stays the referee: answers the rules refuse never reach it. The
host checks them against the legal options first, tells the AI
(ai_error) and answers as Monopyly's defaults do. What the AI raises is
printed with its traceback and counted; anything the AI prints goes to
stderr, which gopoly keeps in its log. A bug of the host itself is not
caught: the host stops, and gopoly's fallback plays the seat.
"""

import importlib.util
import inspect
import os
import random
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(1, os.path.dirname(HERE))  # gopoly_bot

import compat  # noqa: E402
import gopoly_bot  # noqa: E402
from mirror import Mirror  # noqa: E402

# What Monopyly's AI interface names, bound once the package is chosen.
monopyly = None


def find_checkout(path):
    """The root of the Monopyly checkout holding path (the directory with
    the monopyly package), or None."""
    d = os.path.abspath(path)
    if not os.path.isdir(d):
        d = os.path.dirname(d)
    while True:
        if os.path.isfile(os.path.join(d, "monopyly", "__init__.py")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def checkout_root(pkg):
    """--pkg names the checkout or its monopyly package directory."""
    pkg = os.path.abspath(pkg)
    if os.path.isfile(os.path.join(pkg, "monopyly", "__init__.py")):
        return pkg
    if os.path.basename(pkg) == "monopyly" and os.path.isfile(os.path.join(pkg, "__init__.py")):
        return os.path.dirname(pkg)
    raise SystemExit("monopyly host: %s holds no monopyly package (monopyly/__init__.py)" % pkg)


def import_monopyly(root):
    """Import the real package from root, or gopoly's stand-in when root
    is None, after patching the Python of 2014 back."""
    global monopyly
    compat.install()
    sys.path.insert(0, root or os.path.join(HERE, "shim"))
    try:
        import monopyly as m
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        raise SystemExit("monopyly host: the monopyly package of %s does not import: %s" % (root or "gopoly", e))
    monopyly = m
    compat.format_as_text("monopyly")
    where = os.path.dirname(os.path.abspath(m.__file__))
    if root and os.path.commonpath([where, os.path.abspath(root)]) != os.path.abspath(root):
        raise SystemExit("monopyly host: imported monopyly from %s, not from %s" % (where, root))
    return where


def load_ai_classes(spec):
    """The PlayerAIBase subclasses at PATH[#CLASS]: the package's (or the
    file's) own, or the one CLASS names."""
    path, _, cls_name = spec.partition("#")
    path = os.path.abspath(path)
    base = os.path.basename(path.rstrip(os.sep))
    if os.path.isdir(path):
        init = os.path.join(path, "__init__.py")
        if not os.path.exists(init):
            raise SystemExit("monopyly host: %s has no __init__.py: not an AI package" % path)
        name = "monopyly_ai_" + "".join(c if c.isalnum() else "_" for c in base)
        mspec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[path])
    elif os.path.isfile(path):
        name = "monopyly_ai_" + "".join(c if c.isalnum() else "_" for c in os.path.splitext(base)[0])
        mspec = importlib.util.spec_from_file_location(name, path)
    else:
        raise SystemExit("monopyly host: no AI at %s" % path)
    module = importlib.util.module_from_spec(mspec)
    sys.modules[name] = module
    mspec.loader.exec_module(module)
    compat.format_as_text(name)
    base_class = monopyly.PlayerAIBase
    found = [member for member_name, member in inspect.getmembers(module, inspect.isclass)
             if member is not base_class and issubclass(member, base_class) and (not cls_name or member_name == cls_name)]
    if not found:
        raise SystemExit("monopyly host: no PlayerAIBase subclass%s in %s" % (" " + cls_name if cls_name else "", path))
    return found


def load_ai(spec):
    """An instance of the PlayerAIBase subclass at PATH[#CLASS]."""
    found = load_ai_classes(spec)
    if len(found) > 1:
        sys.stderr.write("monopyly host: %d AIs in %s (%s); playing %s (pick one with PATH#CLASS)\n"
                         % (len(found), spec, ", ".join(c.__name__ for c in found), found[0].__name__))
    return found[0]()


class StderrLog(object):
    """A handler of Monopyly's Logger: warnings and worse go to stderr,
    into gopoly's log, as Monopyly's console would show them."""

    def handle_log_message(self, message, level, indent_level):
        try:
            rank, name = level[0], level[1]
        except (TypeError, IndexError):
            return
        if rank >= monopyly.Logger.WARNING[0]:
            sys.stderr.write("%s: %s\n" % (name, message))


def stand_in(name):
    """Another seat of the table, as the AI sees it: a PlayerAIBase that
    answers to its gopoly name."""
    class Seat(monopyly.PlayerAIBase):
        def get_name(self):
            return name
    return Seat()


class Host(gopoly_bot.Bot):
    def __init__(self, ai):
        self.ai = ai
        self.name = "monopyly:" + self.safe_name()
        self.started = False
        self.raised = self.refusals = 0  # this game's exceptions and refused answers

    def safe_name(self):
        try:
            return str(self.ai.get_name())
        except Exception:
            return type(self.ai).__name__

    # --- calling the AI -------------------------------------------------

    def call(self, method, *args, **kw):
        """Call the AI, reporting what it raises (its traceback, then
        ai_error) instead of failing."""
        default = kw.get("default")
        fn = getattr(self.ai, method, None)
        if fn is None:
            return default
        try:
            return fn(*args)
        except Exception as e:  # an AI's bug must not stop the game
            self.raised += 1
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
                self.raised += 1
                traceback.print_exc(file=sys.stderr)

    def refuse(self, message):
        """An answer of the AI the rules refuse."""
        self.refusals += 1
        self.error(message)

    # --- the game ---------------------------------------------------------

    def start(self, game):
        # Contest AIs draw from Python's random: seeded from the seat's
        # seed, the same run seed plays the same games.
        if game.get("seed") is not None:
            random.seed(game["seed"])
        self.seat = game["seat"]
        self.rules = game["rules"]
        self.sealed = self.rules.get("deal_protocol") == "sealed"
        names = game.get("names") or ["player %d" % i for i in range(game["players"])]
        try:
            self.m = Mirror(self.rules, names, self.seat, self.ai, stand_in)
        except ValueError as e:
            raise SystemExit("monopyly host: these rules do not fit Monopyly: %s" % e)
        self.state, self.me = self.m.state, self.m.me
        self.turn_key = self.debt_key = self.auction_key = None
        self.last_limit = 0
        self.raised = self.refusals = 0
        self.started, self.turn_told, self.m_current = True, False, 0
        self.call("start_of_game")

    def events(self, events):
        """Tell the AI what happened, as Monopyly's notifications."""
        gs, me, m = self.state, self.me, self.m
        if not self.turn_told and not (events and events[0]["kind"] == "turn_start"):
            # gopoly starts the first turn without a turn_start event;
            # Monopyly tells every AI of every turn, the first included.
            first = events[0].get("player", -1) if events else -1
            self.call("start_of_turn", gs, m.player(first) or m.player(self.m_current))
        self.turn_told = True
        for e in events:
            k, p = e["kind"], e.get("player", -1)
            mine, to_me = p == self.seat, e.get("to") == self.seat
            if k == "turn_start":
                m.turn_started(p)
                self.call("start_of_turn", gs, m.player(p))
            elif k == "move" and m.player(p):
                self.call("player_landed_on_square", gs, m.square(e["square"]), m.player(p))
            elif k == "go_to_jail" and m.player(p):
                self.call("player_landed_on_square", gs, m.square(m.index(monopyly.Square.Name.JAIL)), m.player(p))
            elif k == "auction_won":
                if mine:
                    self.call("money_taken", me, e["amount"])
                self.call("auction_result", monopyly.PlayerAIBase.Action.AUCTION_SUCCEEDED, m.square(e["square"]),
                          m.player(p), e["amount"])
            elif k == "auction_unsold":
                self.call("auction_result", monopyly.PlayerAIBase.Action.AUCTION_FAILED, m.square(e["square"]), None, 0)
            elif k in ("rent", "pay"):
                if mine:
                    self.call("money_taken", me, e["amount"])
                elif to_me:
                    self.call("money_given", me, e["amount"])
            elif k in ("buy", "build", "unmortgage", "mortgaged_transfer") and mine and e["amount"] > 0:
                self.call("money_taken", me, e["amount"])
            elif k in ("salary", "mortgage", "sell_building") and mine and e["amount"] > 0:
                self.call("money_given", me, e["amount"])
            elif k == "card" and mine and self.keeps(e):
                self.call("got_get_out_of_jail_free_card")
            elif k == "bankrupt":
                self.call("player_went_bankrupt", m.player(p))
            elif k == "trade_accepted":
                self.traded(e, True)
            elif k == "trade_rejected":
                self.traded(e, False)
            elif k == "game_over":
                self.call("game_over", m.player(p), e.get("round_limit", False))

    def keeps(self, e):
        """Whether a card event is a card the player keeps (Get Out of Jail Free)."""
        try:
            return self.rules["decks"][e["deck"]]["cards"][e["card"]].get("do", "").split()[0] == "KEEP"
        except (IndexError, KeyError, TypeError):
            return False

    def traded(self, e, done):
        t = e["trade"]
        proposer, proposee = t["from"], t["to"]
        cash = t["give"]["cash"] - t["get"]["cash"]  # from the proposer to the proposee
        if done:
            if self.seat == proposer and cash:
                self.call("money_taken" if cash > 0 else "money_given", self.me, abs(cash))
            elif self.seat == proposee and cash:
                self.call("money_given" if cash > 0 else "money_taken", self.me, abs(cash))
            r = monopyly.DealResult()
            r.proposer, r.proposee = self.m.player(proposer), self.m.player(proposee)
            r.properties_transferred_to_proposer = [self.m.square(i) for i in t["get"]["squares"]]
            r.properties_transferred_to_proposee = [self.m.square(i) for i in t["give"]["squares"]]
            r.cash_transferred_from_proposer_to_proposee = cash
            if self.seat in (proposer, proposee):
                self.call("deal_result", monopyly.PlayerAIBase.DealInfo.SUCCEEDED)
            self.call("deal_completed", r)
        elif self.seat in (proposer, proposee):
            info = monopyly.PlayerAIBase.DealInfo
            result = info.DEAL_REJECTED
            if e.get("limits_missed"):
                # Monopyly tells the side that wanted cash it asked too
                # much, the side that paid it offered too little. The
                # proposee does not see the proposer's limit, but knows
                # its own.
                asked = t["get"]["cash"] > 0 if self.seat == proposer else self.last_limit > 0
                result = info.ASKED_FOR_TOO_MUCH_MONEY if asked else info.OFFERED_TOO_LITTLE_MONEY
            self.call("deal_result", result)

    def end(self, msg):
        if self.started:
            self.events(msg.get("events") or [])
            if self.raised or self.refusals:
                sys.stderr.write("monopyly host: game %s: the AI raised %d exceptions; the rules refused %d of its answers\n"
                                 % (msg.get("game"), self.raised, self.refusals))
        self.started = False

    # --- decisions ------------------------------------------------------

    def decide(self, d):
        self.m.refresh(d.state, d.budget.get("game_ms"))
        self.m_current = d.state.get("current", 0)
        self.events(d.events)
        self.d = d
        handler = getattr(self, "on_" + d.kind, None)
        act = handler(d) if handler else None
        if act is None or not self.legal(d, act):
            if act is not None:
                self.refuse("the rules refuse %s at %s; Monopyly's default instead" % (act, d.kind))
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
            return not self.offer_fault(d, act["offer"])
        return act in d.actions

    def offer_fault(self, d, offer):
        """Why the rules refuse a proposal now, or "" if they take it."""
        t = d.options.get("trade")
        if not t or t.get("kind") != "propose_trade" or t.get("proposals_left", 0) <= 0:
            return "no proposal may be made now"
        partner = [p for p in t["partners"] if p["seat"] == offer["to"]]
        if not partner:
            return "seat %s is not a partner one may propose to" % offer["to"]
        give, get = offer["give"], offer["get"]
        if not (give["squares"] or get["squares"]):
            return "no property changes hands"
        for side, squares, may in (("give", give, t["give"]), ("get", get, partner[0]["get"])):
            bad = sorted(set(squares["squares"]) - set(may["squares"]))
            if bad:
                return "%s: %s cannot be traded (only %s)" % (side, bad, may["squares"])
            if not 0 <= squares["cash"] <= may["max_cash"]:
                return "%s: cash %d is not within 0..%d" % (side, squares["cash"], may["max_cash"])
        return ""

    def on_buy(self, d):
        sq = self.m.square(d.decision["square"])
        ans = self.call("landed_on_unowned_property", self.state, self.me, sq,
                        default=monopyly.PlayerAIBase.Action.DO_NOT_BUY)
        if ans != monopyly.PlayerAIBase.Action.BUY:
            return {"kind": "decline"}
        if d.first("buy") is None:
            # Monopyly takes the price and, the player short of it,
            # gives it back: the property goes to auction, no error.
            return {"kind": "decline"}
        if sq.price > self.me.state.cash:
            # raise_to_buy: as Monopyly, the player is told the money will
            # be taken and may sell and mortgage; if what it names does not
            # cover the price, the purchase is given up and the property
            # goes to auction (without the sales and mortgages, which
            # Monopyly would have made).
            self.call("money_will_be_taken", self.me, sq.price)
            acts = self.raising()
            if self.me.state.cash + sum(self.raised_by(a) for a in acts) < sq.price:
                return {"kind": "decline"}
            # The raise_cash decision that follows, a debt to the bank
            # (counterparty -1), carries them out.
            self.debt_key = (d.state["turn"], d.decision["square"], sq.price, -1)
            self.debt_plan = self.carry_out(acts)
        return {"kind": "buy"}

    def on_bid(self, d):
        key = (d.state["turn"], d.decision["square"])
        if key != self.auction_key:
            self.auction_key = key
            most = self.call("property_offered_for_auction", self.state, self.me, self.m.square(d.decision["square"]), default=0)
            try:
                self.most = int(most or 0)
            except (TypeError, ValueError):
                self.refuse("property_offered_for_auction returned %r, not a whole number" % (most,))
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
        action = monopyly.PlayerAIBase.Action
        ans = self.call("get_out_of_jail", *args, default=action.STAY_IN_JAIL)
        # What Monopyly cannot do (the fine unpaid for want of cash, no
        # card to play) leaves the player in jail, as there.
        if ans == action.BUY_WAY_OUT_OF_JAIL:
            return d.first("pay_jail_fine", "roll_for_doubles")
        if ans == action.PLAY_GET_OUT_OF_JAIL_FREE_CARD:
            return d.first("use_jail_card", "roll_for_doubles")
        return d.first("roll_for_doubles")

    # Monopyly's requests that take several of gopoly's decisions (three
    # deals, then unmortgaging, then building, each a house at a time)
    # are generators: each decision resumes the plan of its turn or debt
    # with self.d the decision at hand and the objects refreshed, and
    # the plan yields the next action.

    def on_manage(self, d):
        if d.decision["phase"] != "before_roll" or d.state["current"] != self.seat:
            return d.first("continue")
        key = d.state["turn"]
        if key != self.turn_key:
            self.turn_key, self.turn_plan = key, self.turn()
        return next(self.turn_plan, None) or d.first("continue")

    def turn(self):
        """The start of Monopyly's turn: deals, unmortgaging, building."""
        yield from self.deals()
        props = self.call("unmortgage_properties", self.state, self.me, default=[]) or []
        squares = self.indexes(props, "unmortgage_properties")
        # Monopyly gives up the whole request for a property of someone
        # else's, and has nothing to do for one not mortgaged.
        if not all(self.mine(i) for i in squares):
            squares = []
        squares = [i for i in squares if self.m.square(i).is_mortgaged]
        pct = self.rules.get("mortgage_interest_percent", 10)
        cost = sum(mv + (mv * pct + 99) // 100 for mv in (self.m.square(i).mortgage_value for i in squares))
        yield from self.paid(cost, [{"kind": "unmortgage", "square": i} for i in squares])
        if self.me.state.owned_unmortgaged_sets:  # Monopyly asks only then
            builds = self.spread("build", self.call("build_houses", self.state, self.me, default=[]))
            yield from self.paid(sum(self.m.square(a["square"]).house_price for a in builds), builds)

    def deals(self):
        """Up to three proposals, while the rules leave some."""
        for _ in range(3):
            if self.d.decision.get("proposals_left", 0) <= 0:
                return
            act = self.propose(self.d)
            if act is not None:
                yield act

    def paid(self, cost, acts):
        """acts, which cost that much, once paid for. Monopyly takes the
        money first: short of it, the player is told the money will be
        taken and may sell and mortgage; still short, the whole request
        is undone, with no error."""
        if not acts:
            return
        if cost > self.me.state.cash:
            self.call("money_will_be_taken", self.me, cost)
            yield from self.raise_cash()
            if cost > self.me.state.cash:
                return
        yield from self.carry_out(acts)

    def raise_cash(self):
        """sell_houses, then (once the sales are made) mortgage_properties."""
        yield from self.carry_out(self.spread("sell_building", self.call("sell_houses", self.state, self.me, default=[])))
        yield from self.carry_out(self.mortgages(set()))

    def mortgages(self, sold):
        """mortgage_properties as actions. Monopyly passes over what cannot
        be mortgaged: someone else's property, one mortgaged already, a
        street with houses (other than those of the streets in sold, whose
        houses are to be sold first)."""
        props = self.call("mortgage_properties", self.state, self.me, default=[]) or []
        return [{"kind": "mortgage", "square": i} for i in self.indexes(props, "mortgage_properties")
                if self.mine(i) and not self.m.square(i).is_mortgaged
                and (i in sold or not getattr(self.m.square(i), "number_of_houses", 0))]

    def raising(self):
        """sell_houses and mortgage_properties asked at once, before any is
        made: what a purchase would raise."""
        sales = self.spread("sell_building", self.call("sell_houses", self.state, self.me, default=[]))
        return sales + self.mortgages({a["square"] for a in sales})

    def raised_by(self, act):
        """The cash an action of raising brings."""
        sq = self.m.square(act["square"])
        return sq.house_price // 2 if act["kind"] == "sell_building" else sq.mortgage_value

    def carry_out(self, acts):
        """Each action in turn while the rules take it; one they refuse
        drops the rest of the request (Monopyly would undo it all)."""
        for act in acts:
            if not self.legal(self.d, act):
                self.refuse("the rules refuse %s now; the rest of that request is dropped" % act)
                return
            yield act

    def mine(self, i):
        """Whether square i is a property of the AI's."""
        return getattr(self.m.square(i), "owner", None) is self.me

    def indexes(self, props, method):
        """Properties (or, in early AIs, their names) as square indexes."""
        try:
            return [self.m.index(p) for p in props]
        except (KeyError, TypeError):
            self.refuse("%s: want a list of properties, got %r" % (method, props))
            return []

    def spread(self, kind, pairs):
        """[(street, n), ...] as single builds (or sales), each on the
        street of the request with the fewest houses (or the most), so
        that a request that ends even stays even as it goes."""
        want, level = {}, {}
        try:
            for p, n in pairs or []:
                i, n = self.m.index(p), int(n)
                if n < 0:
                    raise ValueError("a negative number")
                want[i] = want.get(i, 0) + n
                level[i] = getattr(self.m.square(i), "number_of_houses", 0)
        except (KeyError, TypeError, ValueError):
            self.refuse("%s: want a list of (street, number) pairs, got %r" % (kind, pairs))
            return []
        step = 1 if kind == "build" else -1
        out = []
        while any(want.values()):
            i = min((i for i in want if want[i]), key=lambda i: (step * level[i], i))
            out.append({"kind": kind, "square": i})
            want[i] -= 1
            level[i] += step
        return out

    def propose(self, d):
        info = monopyly.PlayerAIBase.DealInfo
        prop = self.call("propose_deal", self.state, self.me)
        if not prop:
            return None
        try:
            to = prop.propose_to_player
            if to is None:
                to = getattr(prop, "propose_to_player_number", None)
            seat = to.player_number if isinstance(to, monopyly.Player) else int(to)
            # As Monopyly reads the limits: cash wanted, if any, else cash
            # offered; neither below zero.
            cash_in = max(0, int(prop.minimum_cash_wanted or 0))
            cash_out = 0 if cash_in else max(0, int(prop.maximum_cash_offered or 0))
            offer = {"to": seat,
                     "give": {"squares": sorted(self.m.index(p) for p in prop.properties_offered or []), "cash": cash_out},
                     "get": {"squares": sorted(self.m.index(p) for p in prop.properties_wanted or []), "cash": cash_in}}
        except Exception as e:
            self.refuse("propose_deal returned a proposal that cannot be read: %s" % e)
            self.call("deal_result", info.INVALID_DEAL_PROPOSED)
            return None
        act = {"kind": "propose_trade", "offer": offer}
        t = d.options.get("trade") or {}
        if self.sealed and t:
            # A sealed limit above what the proposer could pay means "up
            # to all I have": the most the rules let it name.
            offer["give"]["cash"] = min(cash_out, t["give"]["max_cash"])
        partner = [p for p in t.get("partners") or [] if p["seat"] == seat]
        if partner and (offer["give"]["cash"] > t["give"]["max_cash"] or cash_in > partner[0]["get"]["max_cash"]):
            # A deal for more cash than its payer has is a valid proposal
            # to Monopyly, which fails when the cash is taken.
            self.call("deal_result", info.PLAYER_DID_NOT_HAVE_ENOUGH_MONEY)
            return None
        fault = self.offer_fault(d, offer)
        if fault:
            self.refuse("propose_deal: the rules refuse the deal %s: %s" % (offer, fault))
            self.call("deal_result", info.INVALID_DEAL_PROPOSED)
            return None
        return act

    def on_raise_cash(self, d):
        key = (d.state["turn"], d.decision["square"], d.decision["amount"], d.decision["counterparty"])
        if key != self.debt_key:
            self.debt_key, self.debt_plan = key, self.debt(d.decision["amount"])
        # What the AI raised was not enough: gopoly allows bankruptcy only
        # once everything is raised.
        return next(self.debt_plan, None) or d.first("mortgage", "sell_building", "declare_bankruptcy")

    def debt(self, amount):
        """Monopyly's order before taking money: money_will_be_taken, up to
        three deals, sell_houses, then mortgage_properties."""
        self.call("money_will_be_taken", self.me, amount)
        yield from self.deals()
        yield from self.raise_cash()

    def on_trade_response(self, d):
        o = d.decision["offer"]
        prop = monopyly.DealProposal(propose_to_player=self.me,
                                     properties_offered=[self.m.square(i) for i in o["give"]["squares"]],
                                     properties_wanted=[self.m.square(i) for i in o["get"]["squares"]])
        prop.proposed_by_player = self.m.player(o["from"])
        reject = monopyly.DealResponse.Action.REJECT
        r = self.call("deal_proposed", self.state, self.me, prop, default=None)
        if r is None or getattr(r, "action", reject) != monopyly.DealResponse.Action.ACCEPT:
            return d.first("reject_trade")
        acc = d.options.get("accept")
        try:
            wanted, offered = int(r.minimum_cash_wanted or 0), int(r.maximum_cash_offered or 0)
        except (TypeError, ValueError):
            self.refuse("deal_proposed: cash limits that are not numbers")
            return d.first("reject_trade")
        if not acc:
            # Open deals: the AI named its limits without seeing the cash,
            # and Monopyly holds it to them as it would hold the
            # proposer's: cash offered to it must reach what it wants, cash
            # asked of it must not pass what it offers.
            cash = int(o["give"].get("cash") or 0) - int(o["get"].get("cash") or 0)
            if cash > 0 and cash < wanted or cash < 0 and -cash > offered:
                return d.first("reject_trade")
            return d.first("accept_trade")
        limit = wanted - offered
        self.last_limit = limit
        return {"kind": "accept_trade", "limit": max(acc["min"], min(acc["max"], limit))}

    def on_mortgaged_transfer(self, d):
        return d.first("keep_mortgaged", "lift_mortgage")

    def on_movement(self, d):
        # Monopyly has no speed die: the first legal move.
        return d.first("move")


def main(argv):
    args, pkg, listing = list(argv), None, False
    while args and args[0].startswith("--"):
        if args[0] == "--pkg" and len(args) > 1:
            pkg, args = checkout_root(args[1]), args[2:]
        elif args[0] == "--list":
            listing, args = True, args[1:]
        else:
            break
    if len(args) != 1:
        raise SystemExit("usage: host.py [--pkg DIR] [--list] PATH[#CLASS]  (a Monopyly AI package directory or .py file;"
                         " --list prints its AI classes)")
    # The protocol has stdout to itself: whatever the AI prints goes to
    # stderr, into gopoly's log.
    protocol_out, sys.stdout = sys.stdout, sys.stderr
    root = pkg or find_checkout(args[0].partition("#")[0])
    where = import_monopyly(root)
    if listing:
        for c in load_ai_classes(args[0]):
            protocol_out.write(c.__name__ + "\n")
        return
    sys.stderr.write("monopyly host: %s with %s (%s)\n" % (
        args[0], "the monopyly package of its checkout" if root else "gopoly's stand-in monopyly package", where))
    monopyly.Logger.add_handler(StderrLog())
    host = Host(load_ai(args[0]))
    gopoly_bot.serve(host, sys.stdin, protocol_out)


if __name__ == "__main__":
    main(sys.argv[1:])
