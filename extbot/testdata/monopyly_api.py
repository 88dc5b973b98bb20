"""What Monopyly's contest AIs use of the monopyly package, and what a
monopyly package offers: the two halves of gopoly's test that its
stand-in package offers all the AIs use of the real one.

    python3 monopyly_api.py uses DIR...
        the AIs' sources under the DIRs, read with ast (nothing is run):
        the names they import from monopyly and its modules, the
        attribute chains they follow from "monopyly", every attribute
        name they read and every bare name they use, as JSON.
    python3 monopyly_api.py describe ROOT < USES
        imports the monopyly package at ROOT (a checkout, or gopoly's
        shim directory) and prints, as JSON, whether each import and
        chain of USES resolves there (with the value of constants), the
        attribute names of each kind of Monopyly object, the names
        "from monopyly import *" gives, and the results of probes of
        the objects' behaviour on a small game set up through the
        package's own interface.
    python3 monopyly_api.py compat HOSTDIR ROOT
        with imp gone as in Python 3.12, the host's compat module lets
        the package at ROOT import; prints what the 2014 idioms give.
"""

import ast
import json
import os
import sys


def uses(dirs):
    imports, chains, attrs, names = set(), set(), set(), set()
    files = 0
    for top in dirs:
        for d, _, fs in os.walk(top):
            for f in fs:
                if not f.endswith(".py"):
                    continue
                with open(os.path.join(d, f), encoding="utf-8", errors="replace") as src:
                    tree = ast.parse(src.read(), filename=f)
                files += 1
                names |= _free_names(tree)
                for node in ast.walk(tree):
                    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                            and node.module.split(".")[0] == "monopyly":
                        for a in node.names:
                            imports.add((node.module, a.name))
                    elif isinstance(node, ast.Import):
                        for a in node.names:
                            if a.name.split(".")[0] == "monopyly":
                                imports.add((a.name, ""))
                    elif isinstance(node, ast.Attribute):
                        attrs.add(node.attr)
                        chain = _chain(node)
                        if chain and chain[0] == "monopyly":
                            chains.add(".".join(chain))
    return {"files": files, "imports": sorted(imports), "chains": sorted(chains),
            "attrs": sorted(attrs), "names": sorted(names)}


def _free_names(tree):
    """The names a module reads but never binds: what it takes from its
    star imports (or the builtins)."""
    read, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return read - bound - set(dir(__builtins__))


def _chain(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id] + parts[::-1]
    return None


def _try(f):
    try:
        return f()
    except Exception as e:
        return "raised %s: %s" % (type(e).__name__, e)


def _plain(v):
    """A constant's value as JSON, or None for what is not a constant."""
    if isinstance(v, (str, int, float, bool)):
        return v
    if isinstance(v, tuple) and all(isinstance(x, (str, int, float)) for x in v):
        return list(v)
    return None


def describe(root, want):
    sys.path.insert(0, root)
    import importlib
    import monopyly
    from monopyly.game.game_state import GameState
    from monopyly.game.player import Player

    out = {"imports": {}, "chains": {}}
    for module, name in want["imports"]:
        key = module + ":" + name
        try:
            m = importlib.import_module(module)
            ok = name in ("", "*") or hasattr(m, name)
        except ImportError:
            ok = False
        out["imports"][key] = ok
    for chain in want["chains"]:
        parts = chain.split(".")
        v, ok = monopyly, True
        for p in parts[1:]:
            if not hasattr(v, p):
                ok = False
                break
            v = getattr(v, p)
        out["chains"][chain] = {"ok": ok, "value": _plain(v) if ok else None}
    out["star"] = sorted(n for n in dir(monopyly) if not n.startswith("_"))

    class AI(monopyly.PlayerAIBase):
        def __init__(self, name):
            self.name = name

        def get_name(self):
            return self.name

    gs = GameState()
    board = gs.board
    p0, p1 = Player(AI("Ann"), 0, board), Player(AI("Bob"), 1, board)
    gs.players.extend([p0, p1])
    N, S = monopyly.Square.Name, monopyly.PropertySet

    def own(player, *square_names):
        for n in square_names:
            sq = board.get_square_by_name(n)
            sq.owner = player
            player.state.properties.add(sq)

    own(p0, N.OLD_KENT_ROAD, N.WHITECHAPEL_ROAD, N.MAYFAIR)
    own(p1, N.KINGS_CROSS_STATION, N.MARYLEBONE_STATION, N.WATER_WORKS, N.ELECTRIC_COMPANY, N.STRAND)
    board.get_square_by_name(N.STRAND).is_mortgaged = True
    for p in gs.players:
        p.state.owned_sets = board.get_owned_sets(True)[p]
        p.state.owned_unmortgaged_sets = board.get_owned_sets(False)[p]
    brown = board.get_property_set(S.BROWN)
    okr = board.get_square_by_name(N.OLD_KENT_ROAD)
    station = board.get_square_by_name(N.KINGS_CROSS_STATION)
    utility = board.get_square_by_name(N.WATER_WORKS)

    class Game(object):  # what the rents of stations and utilities read of Monopyly's Game
        state = gs
        most_recent_total_dice_roll = 7

    rent_bare = _try(lambda: okr.calculate_rent(None, p1))
    board.get_square_by_name(N.WHITECHAPEL_ROAD).number_of_houses = 1
    proposal = monopyly.DealProposal(propose_to_player=p1, properties_offered=[okr], minimum_cash_wanted=10)
    cards = [c for c in board.chance_deck.cards if type(c).__name__ == "GetOutOfJailFree"]

    # Each probe is evaluated alone: one the package fails says so in its
    # result, and the others still run.
    probes = {
        "squares": lambda: [
            (type(s).__name__, s.name, getattr(s, "price", None), getattr(s, "house_price", None),
             getattr(s, "rents", None), getattr(s, "tax", None), getattr(s, "mortgage_value", None))
            for s in board.squares],
        "str(set)": lambda: [str(brown), repr(brown), brown.set_enum, str(okr), repr(okr)],
        "sets": lambda: sorted(str(s) for s in board._property_set_map),
        "get_index": lambda: [board.get_index(N.JAIL), board.get_index(N.CHANCE), board.get_index_list(N.CHANCE)],
        "by": lambda: [board.get_square_by_index(39).name, board.get_square_by_name(N.GO).name],
        "for_set": lambda: [p.name for p in board.get_properties_for_set(S.RED)],
        "owned": lambda: [sorted(str(s) for s in board.get_owned_sets(m)[p]) for m in (True, False) for p in gs.players],
        "set": lambda: [
            brown.owner is p0, brown.number_of_properties, brown.number_of_owned_properties,
            brown.all_properties_are_unmortgaged, brown.can_build_houses, brown.house_price,
            sorted((o.name, n, f) for o, n, f in board.get_property_set(S.RED).owners),
            len(board.get_property_set(S.STATION).intersection(p1.state.properties)),
            board.get_property_set(S.STATION).house_price, board.get_property_set(S.STATION).can_build_houses],
        "rent": lambda: [
            rent_bare, okr.calculate_rent(None, p1), board.get_square_by_name(N.WHITECHAPEL_ROAD).calculate_rent(None, p1),
            station.calculate_rent(Game, p0), utility.calculate_rent(Game, p0)],
        "player": lambda: [
            p0.name, p0.player_number, p0.net_worth, p1.net_worth, p0.owns_properties([okr]),
            p0.owns_properties([okr, station]), p0.is_same_player(p0.ai), p0.is_same_player(p1),
            p0.state.get_number_of_houses_and_hotels(board), p0.state.number_of_get_out_of_jail_free_cards,
            p0.state.cash, p0.state.square, p0.state.is_in_jail, p0.state.number_of_turns_in_jail,
            gs.number_of_players, len(gs.bankrupt_players)],
        "deal": lambda: [
            proposal.deal_proposed, str(proposal), proposal.maximum_cash_offered, proposal.proposed_by_player,
            monopyly.DealProposal().deal_proposed, monopyly.DealResponse(monopyly.DealResponse.Action.ACCEPT).action],
        "cards": lambda: [len(cards), cards[0].deck is board.chance_deck if cards else None],
        "ai": lambda: [
            monopyly.PlayerAIBase().get_name(), monopyly.PlayerAIBase().landed_on_unowned_property(gs, p0, okr),
            monopyly.PlayerAIBase().get_out_of_jail(gs, p0),
            monopyly.PlayerAIBase().property_offered_for_auction(gs, p0, okr), monopyly.PlayerAIBase().build_houses(gs, p0)],
    }
    results = dict((key, _try(probe)) for key, probe in probes.items())
    out["probes"] = json.loads(json.dumps(results))

    objects = {
        "GameState": gs, "Board": board, "Player": p0, "PlayerState": p0.state, "PropertySet": brown,
        "DealProposal": proposal, "DealResponse": monopyly.DealResponse(monopyly.DealResponse.Action.REJECT),
        "DealResult": monopyly.DealResult(), "PlayerAIBase": monopyly.PlayerAIBase(), "Logger": monopyly.Logger,
        "Square.Name": monopyly.Square.Name, "PlayerAIBase.Action": monopyly.PlayerAIBase.Action,
        "PlayerAIBase.DealInfo": monopyly.PlayerAIBase.DealInfo, "DealResponse.Action": monopyly.DealResponse.Action,
        "ChanceDeck": board.chance_deck, "CommunityChestDeck": board.community_chest_deck,
    }
    for sq in board.squares:
        objects.setdefault(type(sq).__name__, sq)
    out["objects"] = {}
    for key, obj in objects.items():
        attrs = {}
        for a in dir(obj):
            if a.startswith("__"):
                continue
            try:
                attrs[a] = _plain(getattr(obj, a)) if a.isupper() else None
            except Exception:
                attrs[a] = None
        out["objects"][key] = attrs
    return out


def compat(host_dir, root):
    sys.modules["imp"] = None  # gone, as in Python 3.12
    sys.path.insert(0, host_dir)
    import time
    import compat as c
    if hasattr(time, "clock"):
        del time.clock
    c.install()
    sys.path.insert(0, root)
    import monopyly
    c.format_as_text("monopyly")
    from monopyly.game.game_state import GameState
    brown = GameState().board.get_property_set(monopyly.PropertySet.BROWN)
    return {"clock": time.clock() >= 0, "imp": hasattr(sys.modules["imp"], "load_package"),
            "format": "[{:8s}]".format(brown), "from": monopyly.__file__.startswith(os.path.abspath(root))}


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "uses":
        result = uses(args)
    elif mode == "describe":
        result = describe(args[0], json.load(sys.stdin))
    else:
        result = compat(args[0], args[1])
    json.dump(result, sys.stdout)
