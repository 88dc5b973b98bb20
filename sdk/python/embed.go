// Package pysdk holds gopoly's Python files: the bot SDK
// (gopoly_bot.py), its example bot, and the Monopyly host with its
// monopyly shim package. They are embedded so that the gopoly binary can
// run a "monopyly:PATH" seat from anywhere (extbot writes them to a cache
// directory once).
package pysdk

import "embed"

// Files are the SDK and the host, by their paths under sdk/python. The
// patterns name them one by one: pyproject.toml, and what pip leaves
// here (build/, *.egg-info), the binary never needs.
//
//go:embed gopoly_bot.py example_bot.py monopyly_host/*.py monopyly_host/shim/monopyly/*.py monopyly_host/shim/monopyly/*/*.py
var Files embed.FS
