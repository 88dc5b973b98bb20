package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/internal/hostcheck"
	"github.com/gopoly/gopoly/mcpserver"
	"github.com/gopoly/gopoly/session"
	service "github.com/gopoly/gopoly/table"
)

// newMCPCmd returns gopoly mcp: the MCP server, on stdio or over HTTP.
func newMCPCmd() *cobra.Command {
	var (
		sf       storeFlags
		addr     string
		origins  []string
		hosts    []string
		programs bool
	)
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve gopoly to MCP clients (Claude Desktop, Claude Code, Cursor ...): stdio, or --http",
		Long: `Serves gopoly over the Model Context Protocol, so that an LLM client can sit
at a table: create a game, advance it, read the decision and its legal
payloads, answer, watch the board, fork the game. The tools, resources and
payload kinds are monopoly-mcp's (create_game, advance_game,
submit_decision, game://{id}/legal-actions ...), with gopoly's fork_game
and get_decision on top.

By default it speaks JSON-RPC on stdin and stdout, as an MCP client starts
it ("command": "gopoly", "args": ["mcp"]). --http 127.0.0.1:PORT serves
streamable HTTP at /mcp instead, to any number of clients; a bare PORT is
on 127.0.0.1. A request whose Host is not the address served (a loopback
name or the address and port it came in on) is refused, against DNS
rebinding (add names with --allowed-hosts); browser requests from other
origins are refused (add one with --allow-origin), and when ` + mcpserver.TokenEnv + ` is set every request
needs "Authorization: Bearer <it>"; an address beyond the loopback
interface is refused without it.

Games are sessions in the store (--data, --db): gopoly sessions lists
them, and a restarted server goes on with them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			token := os.Getenv(mcpserver.TokenEnv)
			allowed, err := hostcheck.Parse(hosts)
			if err != nil {
				return usageErr(fmt.Errorf("mcp: %w", err))
			}
			if addr != "" {
				a, err := mcpserver.ListenAddr(addr, token)
				if err != nil {
					return usageErr(err)
				}
				addr = a
			} else if len(origins) > 0 || len(hosts) > 0 {
				return usageErr(errors.New("mcp: --allow-origin and --allowed-hosts go with --http"))
			}
			players := service.Players(programs, "start gopoly mcp with --allow-programs to let clients seat them")
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			m, done, err := sf.openWith(ctx, cmd, session.Options{Players: players})
			if err != nil {
				return err
			}
			defer done()
			follow(ctx, cmd, m)
			lm, err := sf.openLab(cmd, players)
			if err != nil {
				return err
			}
			defer lm.Close() // cancels the runs; start_experiment(resume) goes on with them
			dir, err := sf.dataDir(cmd)
			if err != nil {
				return err
			}
			srv, err := mcpserver.New(ctx, m, mcpserver.Options{Version: mcpVersion(), Store: sf.describe(), Lab: lm, DataDir: dir})
			if err != nil {
				return fmt.Errorf("mcp: %w", err)
			}
			defer srv.Close()
			if addr == "" {
				return srv.ServeStdio(ctx, cmd.InOrStdin(), cmd.OutOrStdout())
			}
			return serveMCPHTTP(ctx, cmd, srv, addr, mcpserver.HTTPOptions{Token: token, Origins: origins, Hosts: allowed})
		},
	}
	sf.register(cmd)
	cmd.Flags().StringVar(&addr, "http", "", "serve streamable HTTP on `ADDR` (127.0.0.1:PORT, or PORT) instead of stdio")
	cmd.Flags().StringSliceVar(&origins, "allow-origin", nil, "with --http: a browser `ORIGIN` allowed besides the server's own (repeatable)")
	cmd.Flags().StringSliceVar(&hosts, hostcheck.Flag, nil, "with --http: a `HOST` name served besides this server's address (HOST:PORT for one port, * for any; repeatable)")
	cmd.Flags().BoolVar(&programs, "allow-programs", false, "let clients seat programs (exec:, tcp:, monopyly:), which run commands on this machine")
	return cmd
}

// serveMCPHTTP serves srv at addr until ctx ends.
func serveMCPHTTP(ctx context.Context, cmd *cobra.Command, srv *mcpserver.Server, addr string, o mcpserver.HTTPOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageErr(fmt.Errorf("mcp: --http: %w", err))
	}
	mux := http.NewServeMux()
	mux.Handle(mcpserver.HTTPPath, srv.HTTPHandler(o))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	auth := ""
	if o.Token != "" {
		auth = " (bearer token from " + mcpserver.TokenEnv + ")"
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "gopoly mcp: serving MCP on http://%s%s%s\n", ln.Addr(), mcpserver.HTTPPath, auth)
	return serveUntil(ctx, cmd, hs, ln, nil)
}

// mcpVersion is the version the server reports to clients.
func mcpVersion() string {
	bi, ok := debug.ReadBuildInfo()
	return readBuildVersion(bi, ok).Version
}
