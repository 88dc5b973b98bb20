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

``decide`` gets a Decision (the decision, its legal options, the seat's
view and the events since the last decision) and returns an action as a
dict such as ``{"kind": "bid", "amount": 120}``, or an Answer with
speech and thought. Anything printed to stdout would break the protocol:
print to stderr, which gopoly keeps in its log.
"""

import json
import socket
import sys

PROTOCOL = 1


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
        self.view = msg.get("view") or {}
        self.events = msg.get("events") or []
        self.budget = msg.get("budget") or {}
        self.actions = self.options.get("actions") or []
        self.seat = game.get("seat", self.decision.get("player", 0))

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


class Bot(object):
    """Subclass and override decide; the other methods are notifications."""

    name = "python-bot"

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
