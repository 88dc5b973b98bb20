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
// reject trades. It is also built to be quick, as the benchmark of the
// protocol's cost (extbot's BenchmarkGoBot) plays it: it asks gopoly to
// omit what it does not read, picks out of each message the few values
// it reads (json.go), and polls its input for a while before sleeping
// (-spin).
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
	"time"
)

// message is what gobot reads of gopoly's messages: the keys it needs.
// Start, refusal and the rest are decoded by encoding/json, which skips
// the keys not here; a decide, the message of every decision, is read by
// readDecide.
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
	Board struct { // start: the board's fixed facts
		Squares []struct {
			Price int `json:"price"`
		} `json:"squares"`
	} `json:"board"`
	Refusal *struct{ Code, Message string } `json:"refusal"`
}

// action is the kind and square of a listed legal action.
type action struct {
	Kind   string `json:"kind"`
	Square int    `json:"square"`
}

// protocol is the version of the protocol gobot speaks.
const protocol = 2

// reserve is the cash gobot keeps after buying or building.
const reserve = 200

func main() {
	listen := flag.String("listen", "", "serve gopoly over TCP at this address instead of stdin/stdout")
	spin := flag.Duration("spin", 50*time.Microsecond, "poll stdin without sleeping this long before waiting for gopoly's next message (0: wait at once)")
	flag.Parse()
	log.SetPrefix("gobot: ")
	log.SetFlags(0)
	if *listen == "" {
		if err := serve(input(*spin), os.Stdout); err != nil {
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
	var prices []int // by square, from start
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
		if string(member(line, "type")) == `"decide"` {
			err = readDecide(line, &m, seat, &cash)
		} else {
			err = json.Unmarshal(line, &m)
		}
		if err != nil {
			return fmt.Errorf("bad message: %w", err)
		}
		switch m.Type {
		case "start":
			seat = m.Seat
			prices = prices[:0]
			for _, sq := range m.Board.Squares {
				prices = append(prices, sq.Price)
			}
			// It reads neither the text, the notation, the trade options nor
			// the events: gopoly need not build or send them.
			fmt.Fprintf(out, `{"type":"ready","protocol":%d,"name":"gobot","omit":["text","notation","trade","events"]}`+"\n", protocol)
		case "decide":
			fmt.Fprintf(out, `{"type":"answer","id":%d,"action":%s}`+"\n", m.ID, choose(&m, cash, prices))
		case "refusal":
			log.Printf("refused: %s: %s", m.Refusal.Code, m.Refusal.Message)
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// readDecide reads what gobot needs of a decide message: its id, the
// decision, the legal actions and bid range, and the seat's cash from
// the view (see json.go for why not encoding/json).
func readDecide(line []byte, m *message, seat int, cash *int) error {
	m.Type = "decide"
	var decision, options, view []byte
	members(line, func(k, v []byte) bool {
		switch string(k) {
		case "id":
			m.ID = integer(v)
		case "decision":
			decision = v
		case "options":
			options = v
		case "view":
			view = v
			return false // the events after it are not read
		}
		return true
	})
	members(decision, func(k, v []byte) bool {
		switch string(k) {
		case "kind":
			m.Decision.Kind = text(v)
		case "square":
			m.Decision.Square = integer(v)
		case "amount":
			m.Decision.Amount = integer(v)
		}
		return true
	})
	members(options, func(k, v []byte) bool {
		switch string(k) {
		case "actions":
			elements(v, func(a []byte) { m.Options.Actions = append(m.Options.Actions, a) })
		case "bid":
			if string(v) != "null" {
				m.Options.Bid = &struct{ Min, Max int }{integer(member(v, "min")), integer(member(v, "max"))}
			}
		}
		return true
	})
	n := 0
	elements(member(view, "players"), func(p []byte) {
		if n == seat {
			*cash = integer(member(p, "cash"))
		}
		n++
	})
	if m.Decision.Kind == "" || seat >= n {
		return fmt.Errorf("a decide message without a decision or without seat %d in view.players", seat)
	}
	return nil
}

// choose picks an answer from the legal ones.
func choose(m *message, cash int, prices []int) []byte {
	acts := make([]action, len(m.Options.Actions))
	for i, raw := range m.Options.Actions {
		acts[i] = action{Kind: text(member(raw, "kind")), Square: integer(member(raw, "square"))}
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
		if sq := m.Decision.Square; sq >= 0 && sq < len(prices) {
			price = prices[sq]
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
