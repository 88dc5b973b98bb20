package mcpserver

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
	"sync"
)

// A stdio client is the local user: the process that serves it was
// started by that user, on that user's data directory. monopoly-mcp's
// clients never pass tokens, so that the games such a client created
// would be lost to it at the next start of the server if only the
// connection remembered them. The data directory therefore keeps a key
// of the local user's (ownerKeyFile, readable by that user alone) and
// the games created over stdio, each with a tag made with that key
// (ownedFile): the next process, started by the same user, finds its
// games there and answers for them without tokens. A file of games
// copied or written without the key claims nothing, and connections
// over HTTP or in memory never hold games this way: they pass tokens.

// Files of the data directory.
const (
	ownerKeyFile = "mcp-owner.key"
	ownedFile    = "mcp-owned.json"
)

// localOwner is the local user's key and games.
type localOwner struct {
	mu    sync.Mutex
	dir   string
	key   []byte
	games map[string]string // game id -> tag
}

// openOwner reads the key of dir, making one the first time, and the
// games it holds.
func openOwner(dir string) (*localOwner, error) {
	o := &localOwner{dir: dir, games: map[string]string{}}
	path := filepath.Join(dir, ownerKeyFile)
	text, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		key := make([]byte, 32)
		rand.Read(key)
		text = []byte(hex.EncodeToString(key) + "\n")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("owner key: %w", err)
		}
		if err := writeFile(path, text); err != nil {
			return nil, fmt.Errorf("owner key: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("owner key: %w", err)
	}
	if o.key, err = hex.DecodeString(strings.TrimSpace(string(text))); err != nil || len(o.key) < 16 {
		return nil, fmt.Errorf("owner key %s: not a key gopoly wrote (delete it to make a new one; the games it held then need their tokens)", ownerKeyFile)
	}
	data, err := os.ReadFile(filepath.Join(dir, ownedFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("owned games: %w", err)
	}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &o.games); err != nil {
			return nil, fmt.Errorf("owned games %s: %v", ownedFile, err)
		}
	}
	return o, nil
}

// tag is the key's mark on game.
func (o *localOwner) tag(game string) string {
	m := hmac.New(sha256.New, o.key)
	m.Write([]byte("gopoly mcp owner\x00" + game))
	return hex.EncodeToString(m.Sum(nil))
}

// owns reports whether the local user created game over stdio.
func (o *localOwner) owns(game string) bool {
	if o == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	t, ok := o.games[game]
	return ok && hmac.Equal([]byte(t), []byte(o.tag(game)))
}

// add records game as the local user's.
func (o *localOwner) add(game string) error {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.games[game] = o.tag(game)
	return o.save()
}

// forget drops game (deleted).
func (o *localOwner) forget(game string) error {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.games[game]; !ok {
		return nil
	}
	delete(o.games, game)
	return o.save()
}

// save writes the games, whole or not at all.
func (o *localOwner) save() error {
	data, err := json.MarshalIndent(o.games, "", " ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(o.dir, ownedFile), data)
}

// writeFile writes data to path for its owner alone, by a rename, so
// that a crash leaves the old file or the new one.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
