package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// buildVersion is what gopoly version reports: the build's module
// version and the commit it was built from, as the go command stamped
// them into the binary.
type buildVersion struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	// Modified is set when the working tree had changes the revision
	// does not hold; nil when the build recorded no VCS state.
	Modified *bool  `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// readBuildVersion describes the build from bi (ok: false when the
// binary carries no build information). The VCS fields are there only
// when the go command stamped them: go build of a checkout does, go
// test and go run of a single file do not.
func readBuildVersion(bi *debug.BuildInfo, ok bool) buildVersion {
	v := buildVersion{Module: "github.com/gopoly/gopoly", Version: "unknown", Go: runtime.Version()}
	if !ok || bi == nil {
		return v
	}
	if bi.Main.Path != "" {
		v.Module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			m := s.Value == "true"
			v.Modified = &m
		}
	}
	return v
}

// newVersionCmd returns gopoly version.
func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print gopoly's version, the commit it was built from and the Go version",
		Long: `Prints the module version of this gopoly binary, the version-control
revision it was built from with its commit time and whether the working
tree had uncommitted changes, and the Go version that built it. The
revision is known only for a binary that go build or go install made
from a checkout; otherwise it is reported as unknown.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := readBuildVersion(debug.ReadBuildInfo())
			w := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(w, v)
			}
			or := func(s string) string {
				if s == "" {
					return "unknown"
				}
				return s
			}
			modified := "unknown"
			if v.Modified != nil {
				modified = fmt.Sprint(*v.Modified)
			}
			fmt.Fprintf(w, "module    %s\n", v.Module)
			fmt.Fprintf(w, "version   %s\n", v.Version)
			fmt.Fprintf(w, "revision  %s\n", or(v.Revision))
			fmt.Fprintf(w, "time      %s\n", or(v.Time))
			fmt.Fprintf(w, "modified  %s\n", modified)
			fmt.Fprintf(w, "go        %s\n", v.Go)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as a JSON object")
	return cmd
}
