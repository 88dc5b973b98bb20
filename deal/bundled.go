package deal

import (
	_ "embed"
	"sync"
)

// bundledPolicy is the policy of `gopoly deal train` at the paper's
// settings (1,000 games, seed 1), checked in so that the browser and the
// terminal game have a trained agent without a training run.
//
//go:embed bundled-policy.json
var bundledPolicy []byte

var bundled = sync.OnceValues(func() (*Checkpoint, error) { return ParseCheckpoint(bundledPolicy) })

// Bundled returns the bundled trained checkpoint.
func Bundled() (*Checkpoint, error) { return bundled() }
