// Package extbot seats programs written in any language as gopoly
// players: a child process speaking JSON lines over its stdin and stdout
// ("exec:python3 bot.py"), the same protocol over TCP to a program
// running elsewhere ("tcp:host:port"), and the AIs of the Monopyly
// contest, unchanged, through a Python host that gives them Monopyly's
// objects built from gopoly's view ("monopyly:PATH").
//
// Every message is built from package wire, so a program sees exactly
// what the terminal, the MCP server and language-model players see: the
// decision with its text, the legal options, the answer's JSON Schema,
// the seat's Snapshot and the events it may see. PROTOCOL.md documents
// the protocol, and protocol.schema.json is its JSON Schema.
//
// A seat (Seat) is an agent.Agent. Its program is started at the seat's
// first decision, not when the seat is made, so that replaying a logged
// game starts nothing; it is kept from game to game of a run
// (agent.Resetter) and stopped by Close. A program that crashes, hangs,
// writes garbage or answers illegally never stops a game: its fallback
// bot answers that decision, the program is told why (a refusal), and
// after a number of strikes it is retired for the rest of the game. Its
// stderr goes, line by line, to a log. What the program started ends
// with its seat, also what left its process group (on Linux gopoly is
// a child subreaper and finds the program's processes by a variable in
// their environment). Results are deterministic given
// the program's answers: the clock only decides when the fallback
// answers instead.
//
// Importing the package registers the schemes "exec", "tcp" and
// "monopyly" with agent.RegisterScheme, so that every command, spec and
// session that names bots can seat these.
package extbot
