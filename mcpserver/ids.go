package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A JSON-RPC id comes back exactly as it was sent. The SDK keeps a
// numeric id as an int64, so that 1.5 would come back as 1 and 2^70 as
// another number: a client could not match the answer to its request.
// Such ids are refused instead (JSON-RPC asks for ids without
// fractional parts), echoing the id as sent.

// integerID is a number the SDK keeps exactly: an integer written
// without exponent, fraction or leading zeros.
var integerID = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// badID returns the id of a message whose numeric id would not come
// back as sent (nil: the id is fine, or there is none to check).
func badID(msg []byte) json.RawMessage {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &head) != nil || len(head.ID) == 0 {
		return nil
	}
	id := bytes.TrimSpace(head.ID)
	if len(id) == 0 || id[0] != '-' && (id[0] < '0' || id[0] > '9') {
		return nil // a string, null, or not JSON at all: the SDK's to judge
	}
	if integerID.Match(id) {
		if _, err := strconv.ParseInt(string(id), 10, 64); err == nil {
			return nil
		}
	}
	return id
}

// badIDMessage says why an id is refused.
const badIDMessage = "invalid request: a numeric id must be a whole number from -2^63 to 2^63-1 written without fraction or exponent, so that it comes back as sent; use a string id otherwise"

// idRefusal is the JSON-RPC error answering a message with a bad id,
// the id as it was sent.
func idRefusal(id json.RawMessage) []byte {
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "mcpserver: " + badIDMessage}})
	return data
}

// refuseBadID answers an HTTP request whose JSON-RPC message has a bad
// id, and reports whether it did; the body is left for the transport to
// read otherwise.
func refuseBadID(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxLine+1))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil {
		return false
	}
	id := badID(body)
	if id == nil {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(idRefusal(id))
	return true
}
