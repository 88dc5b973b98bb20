package mcpserver

import (
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/gopoly/gopoly/internal/atomicfile"
	"github.com/gopoly/gopoly/session"
)

// A stdio client is the local user: the process that serves it was
// started by that user, on that user's data directory. monopoly-mcp's
// clients never pass tokens, so that the games such a client created
// would be lost to it at the next start of the server if only the
// connection remembered them. The data directory therefore keeps the
// games created over stdio (ownedFile), each with a tag made with the
// directory's key (session.KeyFile, readable by its user alone): the next process, started by the same user, finds its
// games there and answers for them without tokens. A file of games
// copied or written without the key claims nothing, and connections
// over HTTP or in memory never hold games this way: they pass tokens.

// ownedFile lists, in the data directory, the games created over stdio.
const ownedFile = "mcp-owned.json"

// localOwner is the local user's key and games.
type localOwner struct {
	mu    sync.Mutex
	dir   string
	key   []byte
	games map[string]string // game id -> tag
}

// openOwner reads the games of dir, tagged with the data directory's
// key (session.LoadKey: the one that signs exports, made the first time).
func openOwner(dir string) (*localOwner, error) {
	key, err := session.LoadKey(dir)
	if err != nil {
		return nil, err
	}
	o := &localOwner{dir: dir, key: key, games: map[string]string{}}
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
	return session.Mark(o.key, []byte("gopoly mcp owner\x00"+game))
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
	return atomicfile.Write(filepath.Join(o.dir, ownedFile), data, 0o600)
}
