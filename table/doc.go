// Package table is the game service between package session and the
// front ends (the browser, MCP, the terminal): what each of them would
// otherwise do for itself. It reads a new game's seats and rules once,
// draws its seed, opens games and checks who may steer them, turns every
// failure into one Error with a stable Code (each front end maps the
// codes to its own statuses in one place), reads answers in the action
// dialects clients speak, seats bots from a registry the host passes in,
// and shares each game's current position and chances to win among its
// watchers.
package table
