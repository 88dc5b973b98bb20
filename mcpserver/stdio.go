package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one client over newline-delimited JSON-RPC on r and
// w until the client closes r or ctx ends. A line that is not a JSON-RPC
// message is answered with a JSON-RPC error and the connection goes on
// (see stdio.go).
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	ss, err := s.mcp.Connect(ctx, newLineTransport(r, w), nil)
	if err != nil {
		return fmt.Errorf("mcpserver: stdio: %w", err)
	}
	s.seats.track(ss, true) // the local user's connection
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		ss.Close()
		err = <-done
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) && ctx.Err() == nil {
		return fmt.Errorf("mcpserver: stdio: %w", err)
	}
	return nil
}

// lineTransport is the stdio transport: newline-delimited JSON-RPC on a
// reader and a writer. The SDK's own ends the connection at the first
// line that is not a JSON-RPC message; a table that a client's one bad
// line closes loses the client its game mid-play, so this one answers
// such a line with a JSON-RPC error, as the specification asks (a parse
// error, or an invalid request, with the line's id when it has one), and
// reads on.
type lineTransport struct {
	r io.Reader
	w io.Writer
}

func newLineTransport(r io.Reader, w io.Writer) *lineTransport { return &lineTransport{r, w} }

// maxLine bounds one line: a longer one is refused without being kept.
const maxLine = mcp.DefaultMaxLineLength

// Connect starts reading the lines.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{w: t.w, in: make(chan lineMsg), done: make(chan struct{}), open: map[jsonrpc.ID]bool{}, answered: make(chan struct{}, 1)}
	if cl, ok := t.r.(io.Closer); ok {
		c.closer = cl
	}
	go c.readLoop(t.r)
	return c, nil
}

// lineMsg is a message read, or the error that ended the input.
type lineMsg struct {
	msg jsonrpc.Message
	err error
}

// lineConn is one stdio connection.
type lineConn struct {
	wmu    sync.Mutex
	w      io.Writer
	in     chan lineMsg
	done   chan struct{}
	once   sync.Once
	closer io.Closer

	// The requests read and not yet answered: at the end of the input
	// they are answered before the connection ends, so that a client that
	// writes its requests and closes (a script, a pipe) gets its answers.
	mu       sync.Mutex
	open     map[jsonrpc.ID]bool
	answered chan struct{} // signalled when open shrinks
}

// drainWait bounds the wait for answers at the end of the input.
const drainWait = time.Minute

// errLineTooLong is a line over maxLine.
var errLineTooLong = fmt.Errorf("the line is longer than %d bytes", maxLine)

// readLoop reads lines until the input ends, handing on the messages
// and answering the lines that are not messages.
func (c *lineConn) readLoop(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if errors.Is(err, errLineTooLong) {
			c.refuse(nil, jsonrpc.CodeInvalidRequest, err.Error())
			continue
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if msg, ok := c.decode(line); ok {
				select {
				case c.in <- lineMsg{msg: msg}:
				case <-c.done:
					return
				}
			}
		}
		if err != nil {
			c.drain()
			select {
			case c.in <- lineMsg{err: err}:
			case <-c.done:
			}
			return
		}
	}
}

// readLine reads one line without its newline. A line over maxLine is
// skipped to its end and reported as errLineTooLong.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			line = nil
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// decode reads a message, answering a line that is not one.
func (c *lineConn) decode(line []byte) (jsonrpc.Message, bool) {
	if !json.Valid(line) {
		c.refuse(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")
		return nil, false
	}
	if line[0] == '[' {
		c.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported: send one message per line")
		return nil, false
	}
	if id := badID(line); id != nil {
		c.writeLine(idRefusal(id))
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.refuse(idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil, false
	}
	// A subscriptions/listen request lasts as long as the client listens:
	// it is not waited for.
	if r, ok := msg.(*jsonrpc.Request); ok && r.ID.IsValid() && r.Method != "subscriptions/listen" {
		c.mu.Lock()
		c.open[r.ID] = true
		c.mu.Unlock()
	}
	return msg, true
}

// drain waits until the requests read are answered, the connection is
// closed, or drainWait has passed.
func (c *lineConn) drain() {
	limit := time.After(drainWait)
	for {
		c.mu.Lock()
		n := len(c.open)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-c.done:
			return
		case <-limit:
			return
		}
	}
}

// idOf is the id of a line that is a JSON object, if it has a valid one.
func idOf(line []byte) *jsonrpc.ID {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &head) != nil || len(head.ID) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(head.ID))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	if n, ok := v.(json.Number); ok {
		i, err := n.Int64()
		if err != nil {
			return nil
		}
		v = i
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil || !id.IsValid() {
		return nil
	}
	return &id
}

// refuse answers a line that is not a message with a JSON-RPC error,
// with the line's id, or a null one where it has none (the SDK's
// encoder leaves out an id that is not valid, which JSON-RPC asks for).
func (c *lineConn) refuse(id *jsonrpc.ID, code int64, msg string) {
	jerr := &jsonrpc.Error{Code: code, Message: "mcpserver: " + capEchoes(msg)}
	if id != nil {
		c.Write(context.Background(), &jsonrpc.Response{ID: *id, Error: jerr})
		return
	}
	data, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", nil, jerr})
	if err == nil {
		c.writeLine(data)
	}
}

// Read returns the next message.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m.msg, m.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, io.EOF
	}
}

// Write writes one message as a line. A response that does not encode
// (an error whose data is not JSON) is answered with an internal error
// instead: a connection that ends on one bad message loses the client
// its game.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if r, ok := msg.(*jsonrpc.Response); ok && err != nil {
		data, err = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: r.ID, Error: &jsonrpc.Error{
			Code: jsonrpc.CodeInternalError, Message: "mcpserver: the answer could not be written: " + err.Error()}})
	}
	if err != nil {
		return err
	}
	err = c.writeLine(data)
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.open, r.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

// writeLine writes data and a newline, one line at a time.
func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.done:
		return mcp.ErrConnectionClosed
	default:
	}
	_, err := c.w.Write(append(data, '\n'))
	return err
}

// Close ends the connection; a reader that can be closed is, so that
// the read loop stops.
func (c *lineConn) Close() error {
	c.once.Do(func() {
		close(c.done)
		if c.closer != nil {
			c.closer.Close()
		}
	})
	return nil
}

// SessionID is empty: a stdio connection is its own session.
func (c *lineConn) SessionID() string { return "" }
