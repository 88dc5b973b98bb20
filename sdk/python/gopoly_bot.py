"""gopoly_bot: write a gopoly player in Python, standard library only.

A bot is a class with a ``decide`` method; ``run`` speaks gopoly's bot
protocol for it (JSON lines, see extbot/PROTOCOL.md in the gopoly
repository) over stdin and stdout, or over TCP with ``--listen
HOST:PORT``::

    import gopoly_bot

    class Greedy(gopoly_bot.Bot):
        name = "greedy"

        def decide(self, d):
            return d.first("buy", "continue", "drop_out") or d.actions[0]

    if __name__ == "__main__":
        gopoly_bot.run(Greedy())

and at the table: ``gopoly play --bots 'exec:python3 greedy.py',baseline``.
Install it with ``pip install ./sdk/python`` from a gopoly checkout, or
keep this file beside the bot.

``decide`` gets a Decision (the decision, its legal options, the seat's
view as a gopoly snapshot and the events since the last decision) and returns an action as a
dict such as ``{"kind": "bid", "amount": 120}``, or an Answer with
speech and thought. Anything printed to stdout would break the protocol:
print to stderr, which gopoly keeps in its log.
"""

import json
import socket
import sys

PROTOCOL = 2


class Answer(object):
    """An action with the words that go with it."""

    def __init__(self, action, speech="", thought=""):
        self.action = action
        self.speech = speech
        self.thought = thought


class Decision(object):
    """One decide message, with helpers over its legal options."""

    def __init__(self, msg, game):
        self.msg = msg
        self.game = game  # the start message of the game
        self.id = msg["id"]
        self.decision = msg["decision"]
        self.kind = self.decision["kind"]
        self.text = msg.get("text", "")
        self.options = msg.get("options") or {}
        self.state = msg.get("view") or {}  # what changes (wire.State)
        self._view = None
        self.events = msg.get("events") or []
        self.budget = msg.get("budget") or {}
        self.actions = self.options.get("actions") or []
        self.seat = game.get("seat", self.decision.get("player", 0))

    @property
    def view(self):
        """The seat's view of the game as a gopoly snapshot (wire.Snapshot:
        board, players, bank, the decision), made from the board the game
        began with and the state this decision came with."""
        if self._view is None:
            self._view = snapshot(self.game, self.state, self.decision)
        return self._view

    @property
    def me(self):
        """The seat's own player state (cash, position, properties...)."""
        return self.view["players"][self.seat]

    @property
    def cash(self):
        return self.me["cash"]

    def square(self, index):
        """A square of the board as the view describes it."""
        return self.view["board"][index]

    def legal(self, kind):
        """The listed legal actions of a kind."""
        return [a for a in self.actions if a["kind"] == kind]

    def first(self, *kinds):
        """The first listed legal action of the first kind that has one."""
        for k in kinds:
            acts = self.legal(k)
            if acts:
                return acts[0]
        return None

    @property
    def bid_range(self):
        """(lowest, highest) bid allowed now, or None."""
        b = self.options.get("bid")
        return (b["min"], b["max"]) if b else None

    def schema(self):
        """The JSON Schema the answer must satisfy."""
        return self.game.get("schemas", {}).get(self.kind)


def snapshot(start, state, decision=None):
    """The wire.Snapshot that a start message's board and a decide
    message's view (wire.State) describe, as gopoly's State.Snapshot
    makes it, with the decision when one is given."""
    board = start.get("board") or {}
    squares = board.get("squares") or []
    names = start.get("names") or []
    owners = state.get("owners") or []
    houses = state.get("houses") or []
    mortgaged = set(state.get("mortgaged") or [])
    out = {}
    for key in ("viewer", "turn", "round", "phase", "current", "dice", "speed_die", "over", "winner"):
        out[key] = state.get(key)
    out["deal_protocol"] = board.get("deal_protocol", "open")
    cells = []
    for i, sq in enumerate(squares):
        cell = dict(sq)
        h = houses[i] if i < len(houses) else 0
        cell["owner"] = owners[i] if i < len(owners) else -1
        cell["houses"] = 0 if h == 5 else h
        cell["hotel"] = h == 5
        cell["mortgaged"] = i in mortgaged
        cells.append(cell)
    out["board"] = cells
    for key in ("house_supply", "hotel_supply", "jackpot"):
        out[key] = state.get(key)
    cards = state.get("decks") or []
    out["decks"] = [{"name": name, "cards": cards[d] if d < len(cards) else 0}
                    for d, name in enumerate(board.get("decks") or [])]
    players = []
    for p, pb in enumerate(state.get("players") or []):
        pos = pb.get("position", 0)
        decks = pb.get("jail_card_decks") or []
        players.append({
            "seat": p,
            "name": names[p] if p < len(names) and names[p] else "player %d" % p,
            "cash": pb.get("cash"),
            "position": pos,
            "position_name": squares[pos]["name"] if 0 <= pos < len(squares) else "",
            "in_jail": pb.get("in_jail"),
            "passed_go": pb.get("passed_go"),
            "jail_turns": pb.get("jail_turns"),
            "jail_cards": len(decks),
            "jail_card_decks": decks,
            "bankrupt": pb.get("bankrupt"),
            "net_worth": pb.get("net_worth"),
            "properties": [i for i, o in enumerate(owners) if o == p],
        })
    out["players"] = players
    if decision is not None:
        out["decision"] = decision
    return out


class Bot(object):
    """Subclass and override decide; the other methods are notifications."""

    name = "python-bot"
    # Parts of each decision the bot does not read, which gopoly then
    # neither builds nor sends: any of "text", "notation" (in options),
    # "trade" (the trade options) and "events".
    omit = ()

    def start(self, game):
        """A game begins: game is the start message (seat, rules, budget...)."""

    def decide(self, decision):
        """Return an action dict (or an Answer) for a Decision."""
        raise NotImplementedError

    def refused(self, msg):
        """An answer was not taken (msg["refusal"] says why); the fallback answered."""
        sys.stderr.write("refused: %s\n" % json.dumps(msg.get("refusal")))

    def retired(self, msg):
        """No more decisions this game."""

    def end(self, msg):
        """The game is over (msg["over"]) or abandoned."""


def serve(bot, rfile, wfile):
    """Play every game on one connection until the end of its input."""
    game = {}
    for line in rfile:
        if isinstance(line, bytes):
            line = line.decode("utf-8")
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        reply = None
        if kind == "start":
            game = msg
            bot.start(msg)
            reply = {"type": "ready", "protocol": PROTOCOL, "name": bot.name}
            if bot.omit:
                reply["omit"] = list(bot.omit)
        elif kind == "decide":
            ans = bot.decide(Decision(msg, game))
            if not isinstance(ans, Answer):
                ans = Answer(ans)
            reply = {"type": "answer", "id": msg["id"], "action": ans.action}
            if ans.speech:
                reply["speech"] = ans.speech
            if ans.thought:
                reply["thought"] = ans.thought
        elif kind == "refusal":
            bot.refused(msg)
        elif kind == "retired":
            bot.retired(msg)
        elif kind == "end":
            bot.end(msg)
        if reply is not None:
            out = json.dumps(reply, separators=(",", ":")) + "\n"
            if isinstance(wfile, socket.socket):
                wfile.sendall(out.encode("utf-8"))
            else:
                wfile.write(out)
                wfile.flush()


def run(bot, argv=None):
    """Serve gopoly over stdin/stdout, or with --listen HOST:PORT over TCP."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) >= 2 and argv[0] == "--listen":
        host, _, port = argv[1].rpartition(":")
        srv = socket.create_server((host or "127.0.0.1", int(port)))
        sys.stderr.write("listening on %s:%s\n" % srv.getsockname()[:2])
        sys.stderr.flush()
        while True:
            conn, _ = srv.accept()
            with conn:
                serve(bot, conn.makefile("r", encoding="utf-8"), conn)
    else:
        serve(bot, sys.stdin, sys.stdout)
