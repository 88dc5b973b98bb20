// A client of gopoly mcp on the official TypeScript MCP SDK: it plays
// one seat of a whole game the way a monopoly-mcp client does, never
// passing a token and answering only with monopoly-mcp's payloads, as
// JSON-encoded strings (FORM string) or objects (FORM object). It speaks
// newline-delimited JSON-RPC on its own stdin and stdout, which the Go
// test connects to the server; the SDK's client validates every tool
// result against the tool's output schema, and this client validates
// every call's arguments against the tool's advertised input schema
// (ajv, JSON Schema 2020-12) before sending them.
//
//   node play.mjs SEED FORM [RULES]    (RULES: a rules override, such as "speed_die: true")
//
// It prints one JSON line on stderr at the end: the status, the
// decisions it sent and the payload kinds.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";

// StdioPipe is the SDK's stdio framing on this process's own stdin and
// stdout: the server is at the other end of the pipes.
class StdioPipe {
  constructor() {
    this.buffer = new ReadBuffer();
  }
  async start() {
    process.stdin.on("data", (chunk) => {
      this.buffer.append(chunk);
      for (;;) {
        let msg;
        try {
          msg = this.buffer.readMessage();
        } catch (err) {
          this.onerror?.(err);
          continue;
        }
        if (msg === null) break;
        this.onmessage?.(msg);
      }
    });
    process.stdin.on("end", () => this.onclose?.());
  }
  async send(message) {
    process.stdout.write(serializeMessage(message));
  }
  async close() {
    process.stdin.pause();
    this.onclose?.();
  }
}

// preference orders the payloads the player picks among the legal ones,
// so that its games end: buy, leave jail, go on, raise cash before
// going bankrupt.
const preference = [
  (p) => p.kind === "purchaseProperty" && p.buy,
  (p) => p.kind === "jailExit" && p.choice === "payFine",
  (p) => p.kind === "jailExit",
  (p) => p.kind === "rollDice",
  (p) => p.kind === "yieldTurn",
  (p) => p.kind === "movementChoice",
  (p) => p.kind === "auctionBid" && p.bid === null,
  (p) => (p.kind === "attemptTrade" || p.kind === "acceptCounterOffer") && !p.accept,
  (p) => p.kind === "unmortgageProperty" && p.unmortgage === false,
  (p) => p.kind === "unmortgageProperty",
  (p) => p.kind === "unimproveGroup",
  (p) => p.kind === "mortgageProperty",
  (p) => p.kind === "purchaseProperty",
  (p) => p.kind === "declareBankruptcy",
];

function choose(legal) {
  for (const want of preference) {
    const l = legal.find((l) => l.payload !== null && want(l.payload));
    if (l) return l.payload;
  }
  throw new Error("no legal answer with a monopoly-mcp payload: " + JSON.stringify(legal));
}

async function main() {
  const seed = Number(process.argv[2] ?? "1");
  const form = process.argv[3] ?? "string";
  const rules = process.argv[4];
  const client = new Client({ name: "gopoly-tsclient", version: "1.0.0" });
  await client.connect(new StdioPipe());
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  const inputs = {};
  for (const tool of (await client.listTools()).tools) {
    inputs[tool.name] = ajv.compile(tool.inputSchema);
  }

  const call = async (name, args) => {
    if (!inputs[name](args)) {
      throw new Error(`${name}: the arguments ${JSON.stringify(args)} do not match the advertised input schema: ${ajv.errorsText(inputs[name].errors)}`);
    }
    const res = await client.callTool({ name, arguments: args });
    if (res.isError) throw new Error(`${name}: ${res.content.map((c) => c.text).join(" ")}`);
    return res.structuredContent;
  };
  const args = {
    seed,
    max_rounds: 150,
    players: [
      { token: "Battleship", is_human: true },
      { token: "Boot", ai: { seed: 0 } },
      { token: "Cat", ai: { strategy: "baseline" } },
      { token: "Hat", ai: { strategy: "baseline" } },
    ],
  };
  if (rules) args.rules = rules;
  const game = await call("create_game", args);
  const id = game.game_id;
  let state = await call("advance_game", { game_id: id });
  let decisions = 0;
  const kinds = {};
  while (state.status !== "completed") {
    if (decisions > 5000) throw new Error("not over after 5000 decisions");
    if (state.status !== "awaitingDecision") {
      state = await call("advance_game", { game_id: id });
      continue;
    }
    const res = await client.readResource({ uri: `game://${id}/legal-actions` });
    const doc = JSON.parse(res.contents[0].text);
    const payload = choose(doc.legal);
    kinds[payload.kind] = (kinds[payload.kind] ?? 0) + 1;
    const decision = form === "object" ? payload : JSON.stringify(payload);
    const out = await call("submit_decision", { game_id: id, decision });
    if (out.applied.dialect !== "monopoly-mcp") throw new Error("read as " + out.applied.dialect);
    decisions++;
    state = out;
  }
  await call("delete_game", { game_id: id });
  process.stderr.write(JSON.stringify({ status: state.status, decisions, round: state.round, kinds }) + "\n");
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`tsclient: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
