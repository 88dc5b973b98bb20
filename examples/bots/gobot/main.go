// Command gobot is an example gopoly player in Go, speaking the bot
// protocol (extbot/PROTOCOL.md) over its stdin and stdout, or, with
// -listen, over TCP to each gopoly that connects:
//
//	gopoly play --bots 'exec:go run ./examples/bots/gobot',baseline,baseline,baseline
//	go build -o gobot ./examples/bots/gobot && gopoly sim --bots exec:./gobot,baseline --games 10
//	./gobot -listen 127.0.0.1:7000 & gopoly play --bots tcp:127.0.0.1:7000,baseline
//
// It plays a plain strategy, always from the legal options it is sent:
// buy while it keeps a reserve, bid up to the price, build whatever is
// offered, raise cash by mortgaging before selling, leave jail early,
// reject trades. It decodes only the parts of each message it reads,
// which keeps a decision cheap: the benchmark of protocol overhead
// (extbot's BenchmarkGoBot) plays it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
)

// message is what gobot reads of gopoly's messages: the keys it needs;
// encoding/json skips the rest.
type message struct {
	Type     string `json:"type"`
	Protocol int    `json:"protocol"`
	Seat     int    `json:"seat"`
	ID       int    `json:"id"`
	Decision struct {
		Kind   string `json:"kind"`
		Square int    `json:"square"`
		Amount int    `json:"amount"`
	} `json:"decision"`
	Options struct {
		Actions []json.RawMessage       `json:"actions"`
		Bid     *struct{ Min, Max int } `json:"bid"`
	} `json:"options"`
	View struct {
		Board []struct {
			Price int `json:"price"`
		} `json:"board"`
		Players []struct {
			Cash int `json:"cash"`
		} `json:"players"`
	} `json:"view"`
	Refusal *struct{ Code, Message string } `json:"refusal"`
}

// action is the kind and square of a listed legal action.
type action struct {
	Kind   string `json:"kind"`
	Square int    `json:"square"`
}

// reserve is the cash gobot keeps after buying or building.
const reserve = 200

func main() {
	listen := flag.String("listen", "", "serve gopoly over TCP at this address instead of stdin/stdout")
	flag.Parse()
	log.SetPrefix("gobot: ")
	log.SetFlags(0)
	if *listen == "" {
		if err := serve(os.Stdin, os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("listening on %s", ln.Addr())
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go func() {
			defer c.Close()
			if err := serve(c, c); err != nil {
				log.Print(err)
			}
		}()
	}
}

// serve plays every game gopoly starts on one connection, until the end
// of its input.
func serve(r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, 256<<10)
	out := bufio.NewWriter(w)
	seat, cash := 0, 0
	var m message
	for {
		line, err := in.ReadSlice('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil && err != bufio.ErrBufferFull {
			return err
		}
		if err == bufio.ErrBufferFull { // a long line: read the rest
			rest, err := in.ReadBytes('\n')
			if err != nil && err != io.EOF {
				return err
			}
			line = append(append([]byte(nil), line...), rest...)
		}
		m = message{}
		if err := json.Unmarshal(line, &m); err != nil {
			return fmt.Errorf("bad message: %w", err)
		}
		switch m.Type {
		case "start":
			seat = m.Seat
			fmt.Fprintf(out, `{"type":"ready","protocol":%d,"name":"gobot"}`+"\n", 1)
		case "decide":
			if seat < len(m.View.Players) {
				cash = m.View.Players[seat].Cash
			}
			fmt.Fprintf(out, `{"type":"answer","id":%d,"action":%s}`+"\n", m.ID, choose(&m, cash))
		case "refusal":
			log.Printf("refused: %s: %s", m.Refusal.Code, m.Refusal.Message)
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// choose picks an answer from the legal ones.
func choose(m *message, cash int) []byte {
	acts := make([]action, len(m.Options.Actions))
	for i, raw := range m.Options.Actions {
		json.Unmarshal(raw, &acts[i])
	}
	pick := func(kinds ...string) []byte {
		for _, k := range kinds {
			for i, a := range acts {
				if a.Kind == k {
					return m.Options.Actions[i]
				}
			}
		}
		return nil
	}
	var a []byte
	switch m.Decision.Kind {
	case "buy":
		if cash-m.Decision.Amount >= reserve {
			a = pick("buy")
		}
	case "bid":
		price := 0
		if sq := m.Decision.Square; sq >= 0 && sq < len(m.View.Board) {
			price = m.View.Board[sq].Price
		}
		if b := m.Options.Bid; b != nil && b.Min <= price && cash-b.Min >= reserve {
			a = []byte(fmt.Sprintf(`{"kind":"bid","amount":%d}`, b.Min))
		}
		if a == nil {
			a = pick("drop_out")
		}
	case "jail":
		a = pick("use_jail_card", "pay_jail_fine")
	case "raise_cash":
		a = pick("mortgage", "sell_building", "declare_bankruptcy")
	case "manage":
		if cash > 2*reserve {
			a = pick("unmortgage", "build")
		}
	case "trade_response":
		a = pick("reject_trade")
	case "mortgaged_transfer":
		a = pick("keep_mortgaged")
	}
	if a == nil {
		// continue, decline, the first move of the speed die: whatever
		// goes on without spending.
		a = pick("continue", "decline", "drop_out", "roll_for_doubles", "keep_mortgaged")
	}
	if a == nil && len(m.Options.Actions) > 0 {
		a = m.Options.Actions[0]
	}
	return a
}
