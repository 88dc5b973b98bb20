package mcpserver

import (
	"context"
	_ "embed"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() { features = append(features, (*Server).addApp) }

// The MCP App: a ui:// resource of the MCP Apps extension that clients
// which render apps show beside the tools linked to it (create_game,
// advance_game, submit_decision, get_decision): the live board and the
// legal actions as buttons. It holds no game logic: it calls the same
// tools through the host (get_decision, read_resource for the board,
// submit_decision, advance_game), so the engine judges every click.

// appURI is the app's resource.
const appURI = "ui://gopoly/table.html"

// mimeApp is the MCP Apps profile of HTML.
const mimeApp = "text/html;profile=mcp-app"

//go:embed app.html
var appHTML string

// appMeta links a tool to the app, under both the key of the MCP Apps
// specification and the older flat one some hosts still read.
func appMeta() mcp.Meta {
	return mcp.Meta{"ui": map[string]any{"resourceUri": appURI}, "ui/resourceUri": appURI}
}

func (s *Server) addApp() {
	s.resource(appURI, "gopoly table", mimeApp, "the live board and the legal actions, for clients that render MCP Apps",
		func(context.Context, *readCtx) (*content, error) { return &content{mimeApp, appHTML}, nil })
}
