package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/internal/hostcheck"
	"github.com/gopoly/gopoly/session"
	service "github.com/gopoly/gopoly/table"
	"github.com/gopoly/gopoly/web"
)

func newServeCmd() *cobra.Command {
	var (
		sf       storeFlags
		addr     string
		demo     bool
		hosts    []string
		programs bool
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the browser UI: watch the personalities play, take a seat, scrub and fork",
		Long: `Serves gopoly in the browser on --addr (127.0.0.1:8080 by default: this
machine only). It starts a game of the four personalities and prints its
link: the board, the table talk, their thoughts (the research view), the
chances to win, speed controls and a replay scrubber. The lobby (/) starts
other games, with seats for people, and lists every stored game, those of
gopoly play and the MCP server included. A request whose Host is not the
address served (a loopback name or the address and port it came in on)
is refused, against DNS rebinding: --allowed-hosts adds names, for a
server reached through a proxy or by its machine's name.

Games are kept in the session store (--data, --db), so a restart loses
nothing. Ctrl-C stops the server.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			allowed, err := hostcheck.Parse(hosts)
			if err != nil {
				return usageErr(fmt.Errorf("serve: %w", err))
			}
			players := service.Players(programs, "start gopoly serve with --allow-programs to let the lobby seat them")
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			m, done, err := sf.openWith(ctx, cmd, session.Options{Research: true, Players: players})
			if err != nil {
				return err
			}
			defer done()
			follow(ctx, cmd, m)
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return usageErr(fmt.Errorf("serve: %w", err))
			}
			lm, err := sf.openLab(cmd, players)
			if err != nil {
				return err
			}
			defer lm.Close() // cancels the runs; they resume from the lab page
			dir, err := sf.dataDir(cmd)
			if err != nil {
				return err
			}
			srv := web.New(web.Options{Sessions: m, Lab: lm, DealDir: filepath.Join(dir, "deal"), Hosts: allowed})
			defer srv.Close()
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
			base := "http://" + ln.Addr().String()
			out := cmd.OutOrStdout()
			if demo {
				l, err := srv.Demo(ctx)
				if err != nil {
					return fmt.Errorf("serve: %w", err)
				}
				fmt.Fprintf(out, "gopoly: the four personalities are playing at %s%s\n", base, l.Research)
			}
			fmt.Fprintf(out, "gopoly: lobby at %s/ (sessions in %s); Ctrl-C stops\n", base, sf.describe())
			return serveUntil(ctx, cmd, hs, ln, srv.Close) // Close ends the streams, which Shutdown would wait for
		},
	}
	sf.register(cmd)
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	cmd.Flags().BoolVar(&demo, "demo", true, "start a game of the four personalities and print its link")
	cmd.Flags().StringSliceVar(&hosts, hostcheck.Flag, nil, "a `HOST` name served besides this server's address (HOST:PORT for one port, * for any; repeatable)")
	cmd.Flags().BoolVar(&programs, "allow-programs", false, "let the lobby, forks and the lab seat programs (exec:, tcp:, monopyly:), which run commands on this machine")
	return cmd
}
