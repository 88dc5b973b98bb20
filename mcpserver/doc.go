// Package mcpserver serves gopoly over the Model Context Protocol, so
// that any MCP client (an LLM host such as Claude Desktop, Claude Code or
// Cursor, or a script) can sit at a gopoly table: create a game, advance
// it, read the decision and its legal payloads, answer, watch the board
// and fork the game.
//
// Its tools, arguments, resources and payload kinds are those of
// monopoly-mcp wherever they make sense, so that its users can switch:
// list_tokens, read_resource, create_game, replay_game, advance_game,
// submit_decision, delete_game, validate_config, save_config and
// delete_config, with gopoly's fork_game and get_decision on top. A
// decision is answered in gopoly's action JSON (package wire) or in
// monopoly-mcp's payload kinds ("rollDice", "purchaseProperty",
// "auctionBid" ...), which are mapped onto the same engine actions and
// checked by the engine like any other answer (see dialect.go).
//
// Nothing here knows a rule: games are package session's sessions, kept
// in its store (so gopoly sessions and the browser see the same games,
// and a restarted server resumes them), answers go through
// Session.Submit, and legal options, schemas and views are package
// wire's.
//
// # Adding a feature
//
// Each file registers its own tools, resources and prompts from an init
// function into features; New runs them all. A new group of tools (the
// experiments and tournaments to come) is one more file: its handlers,
// its resources added with Server.resource, and one init line.
package mcpserver
