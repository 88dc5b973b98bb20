package session

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// An export's digest (wire.Digest) is a consistency check: it tells a
// log that replays to another game on this engine from one that replays
// as recorded. Anyone can compute it, so it proves nothing about who
// wrote the file. The signature does: an HMAC of the whole export under
// a key kept in the data directory, which only the exporting user's
// gopoly holds.

// ErrSignature: an export's signature does not check out with this data
// directory's key. The file was changed after it was exported, or was
// exported from another data directory (or before exports were signed);
// Trust imports it anyway, marked as trusted.
var ErrSignature = errors.New("session: import: the export's signature does not match this data directory's key")

// KeyFile is the name of the export signing key in the data directory.
const KeyFile = "export.key"

// LoadKey returns the export signing key kept in directory dir, making
// it (32 random bytes, hex, readable by the user alone) the first time.
// Two processes making it at once agree: the file is created only if it
// does not exist, and the loser reads the winner's.
func LoadKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, KeyFile)
	if key, err := readKey(path); !errors.Is(err, os.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("session: export key: %w", err)
	}
	var b [32]byte
	rand.Read(b[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return readKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("session: export key: %w", err)
	}
	text := hex.EncodeToString(b[:])
	_, err = f.WriteString(text + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path) // a partial key would be read as a short one
		return nil, fmt.Errorf("session: export key: %w", err)
	}
	return []byte(text), nil
}

// readKey reads a key file, refusing one too short to be a key.
func readKey(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key := []byte(strings.TrimSpace(string(data)))
	if len(key) < 32 {
		return nil, fmt.Errorf("session: export key %s: %d characters, too short to sign with; delete it to make a new one", path, len(key))
	}
	return key, nil
}

// sign returns the signature of x under key: an HMAC-SHA256, in hex, of
// x's compact JSON with no signature. What Import decodes marshals back
// to the same bytes, so the check needs no canonical form of its own.
func (x exported) sign(key []byte) (string, error) {
	x.Signature = ""
	data, err := json.Marshal(x)
	if err != nil {
		return "", err
	}
	return Mark(key, data), nil
}

// Mark is data's mark under a data directory's key (LoadKey): an
// HMAC-SHA256, in hex. Exports are signed with it, and the MCP server
// tags the games a stdio client created with it.
func Mark(key, data []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write(data)
	return hex.EncodeToString(mac.Sum(nil))
}

// signedBy reports whether x carries a valid signature under key.
func (x exported) signedBy(key []byte) bool {
	if len(key) == 0 || x.Signature == "" {
		return false
	}
	want, err := x.sign(key)
	return err == nil && hmac.Equal([]byte(want), []byte(x.Signature))
}

// ImportOption tunes Import.
type ImportOption func(*importing)

type importing struct{ trust bool }

// Trust imports an export whose signature does not check out, as the
// user asked after being told (gopoly import --trust): it must still
// replay, every bot answer as its bot gives it, to the digest it
// records. The session's setup says it was trusted (Setup.Trusted), and
// so does its status.
func Trust() ImportOption { return func(o *importing) { o.trust = true } }
