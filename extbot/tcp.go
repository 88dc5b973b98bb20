package extbot

import (
	"fmt"
	"net"
	"time"
)

// dialTimeout bounds connecting to a program over TCP.
const dialTimeout = 5 * time.Second

// tcpLink is a connection to a program listening for gopoly: the same
// lines as over a child's stdin and stdout. The program's stderr is its
// own affair.
type tcpLink struct{ net.Conn }

func dialTCP(addr string) (*tcpLink, error) {
	c, err := net.DialTimeout("tcp", addr, dialTimeout)
	if err != nil {
		return nil, fmt.Errorf("extbot: %w", err)
	}
	return &tcpLink{c}, nil
}

// Kill closes the connection: there is nothing else to stop.
func (t *tcpLink) Kill() error { return t.Conn.Close() }
