package deal

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"sync"
)

// bundledPolicy is the checkpoint of
//
//	gopoly deal train --out runs/deal --abstraction situation --resolver smart --games 8000
//
// (seed 1), gzipped with `gzip -9 -n < runs/deal/policy.json`, checked
// in so that the browser and the terminal game have a trained agent
// without a training run. Its keys carry the Situation facts, which
// makes the JSON thirty times larger than an intent checkpoint.
//
//go:embed bundled-policy.json.gz
var bundledPolicy []byte

var bundled = sync.OnceValues(func() (*Checkpoint, error) {
	zr, err := gzip.NewReader(bytes.NewReader(bundledPolicy))
	if err != nil {
		return nil, fmt.Errorf("deal: bundled policy: %w", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("deal: bundled policy: %w", err)
	}
	return ParseCheckpoint(data)
})

// Bundled returns the bundled trained checkpoint.
func Bundled() (*Checkpoint, error) { return bundled() }
