package session

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/gopoly/gopoly/monopoly"
)

// configID is what a config's id may be: short, and safe in a URL and on
// a command line.
var configID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// SaveConfig stores a rules config: YAML overlaid on the default rules,
// checked as a rules file is (errors name the config, line and field),
// under id, replacing a config of the same id. A session made from it
// keeps the YAML itself, so changing or deleting the config later does
// not change the games made from it.
func (m *Manager) SaveConfig(ctx context.Context, id, name, yaml string) (Config, error) {
	if !configID.MatchString(id) {
		return Config{}, fmt.Errorf("session: config id %q: want 1 to 64 lower-case letters, digits, '-' or '_', starting with a letter or digit", id)
	}
	if strings.TrimSpace(yaml) != "" {
		if _, err := monopoly.DefaultRules().WithOverrides("config "+id, []byte(yaml)); err != nil {
			return Config{}, fmt.Errorf("session: %w", err)
		}
	}
	c := Config{ID: id, Name: name, YAML: yaml, Created: m.now()}
	return c, m.store.SaveConfig(ctx, c)
}

// Config returns the saved config id (ErrNotFound if there is none).
func (m *Manager) Config(ctx context.Context, id string) (Config, error) {
	return m.store.Config(ctx, id)
}

// Configs lists the saved configs by id.
func (m *Manager) Configs(ctx context.Context) ([]Config, error) { return m.store.Configs(ctx) }

// DeleteConfig removes a saved config (ErrNotFound if there is none).
func (m *Manager) DeleteConfig(ctx context.Context, id string) error {
	return m.store.DeleteConfig(ctx, id)
}
