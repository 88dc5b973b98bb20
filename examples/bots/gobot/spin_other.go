//go:build !unix

package main

import (
	"io"
	"os"
	"time"
)

// input is gobot's stdin (polling it is done on Unix only).
func input(time.Duration) io.Reader { return os.Stdin }
