package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata")

// k8sSpec has what a template could trip on: quotes, a colon in a
// comment, trailing spaces, a blank line, and no newline at the end.
const k8sSpec = "name: cli\n# \"seeds\": six of them   \n\nseeds: {start: 3, count: 6}\ndetail: stats\nrules: {max_rounds: 80}\nvariants:\n  - name: trio\n    seats: [baseline, random, baseline]\n    rotate: true\n  - name: pair\n    seats: [baseline, baseline]"

func writeK8sSpec(t *testing.T, dir, file string) string {
	t.Helper()
	p := filepath.Join(dir, file)
	if err := os.WriteFile(p, []byte(k8sSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// manifestDocs parses the manifest back into generic maps, one per
// document.
func manifestDocs(t *testing.T, out string) []map[string]any {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(out))
	var docs []map[string]any
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("the manifest does not parse: %v\n%s", err, out)
		}
		docs = append(docs, d)
	}
}

// dig follows keys (string for a mapping, int for a sequence) into v.
func dig(t *testing.T, v any, keys ...any) any {
	t.Helper()
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("no mapping for %q in %v", k, keys)
			}
			v = m[k]
		case int:
			s, ok := v.([]any)
			if !ok || k >= len(s) {
				t.Fatalf("no item %d in %v", k, keys)
			}
			v = s[k]
		}
	}
	return v
}

func strs(t *testing.T, v any) []string {
	t.Helper()
	var out []string
	for _, x := range v.([]any) {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// The manifest is what the golden file holds (go test ./cmd/gopoly -run
// Manifest -update rewrites it), and holds what a cluster needs: an
// Indexed Job of N shards whose pods run their shard from the spec in a
// ConfigMap into the claim, and a merge Job.
func TestExperimentManifestK8s(t *testing.T) {
	dir := t.TempDir()
	spec := writeK8sSpec(t, dir, "My_Experiment.v2.yaml")
	stdout, stderr, code := experimentRun(t, "manifest", spec, "--k8s", "--image", "ghcr.io/gopoly/gopoly:v1", "--out-volume", "gopoly-runs",
		"--shards", "3", "--out", "exp/cli")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden := filepath.Join("testdata", "experiment-manifest-k8s.yaml")
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/gopoly -run Manifest -update to write it)", err)
	}
	if string(want) != stdout {
		t.Errorf("%s differs; if the change is meant, run go test ./cmd/gopoly -run Manifest -update and review the diff\ngot:\n%s", golden, stdout)
	}

	docs := manifestDocs(t, stdout)
	if len(docs) != 3 {
		t.Fatalf("%d documents, want a ConfigMap and two Jobs", len(docs))
	}
	cm, run, merge := docs[0], docs[1], docs[2]
	for i, w := range []struct{ api, kind, name, step string }{
		{"v1", "ConfigMap", "my-experiment-v2-spec", "run"},
		{"batch/v1", "Job", "my-experiment-v2-shards", "run"},
		{"batch/v1", "Job", "my-experiment-v2-merge", "merge"},
	} {
		d := docs[i]
		name, _ := dig(t, d, "metadata", "name").(string)
		if d["apiVersion"] != w.api || d["kind"] != w.kind || name != w.name || dig(t, d, "metadata", "labels", "gopoly.io/step") != w.step {
			t.Errorf("document %d: %v %v %q step %v; want %s %s %s step %s", i, d["apiVersion"], d["kind"], name,
				dig(t, d, "metadata", "labels", "gopoly.io/step"), w.api, w.kind, w.name, w.step)
		}
		if !validLabel(name) || len(name) > 63 || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			t.Errorf("%q is not a DNS-1123 label", name)
		}
	}
	if data := dig(t, cm, "data").(map[string]any); len(data) != 1 || data["spec.yaml"] != k8sSpec {
		t.Errorf("the ConfigMap holds %q, want exactly the spec", data)
	}

	js := dig(t, run, "spec")
	if dig(t, js, "completionMode") != "Indexed" || dig(t, js, "completions") != 3 || dig(t, js, "parallelism") != 3 {
		t.Errorf("job spec: %v", js)
	}
	pod := dig(t, js, "template", "spec")
	if rp := dig(t, pod, "restartPolicy"); rp != "Never" || dig(t, js, "backoffLimitPerIndex") == nil {
		t.Errorf("restartPolicy %v, backoffLimitPerIndex %v: a failed index must be retried", rp, dig(t, js, "backoffLimitPerIndex"))
	}
	c := dig(t, pod, "containers", 0)
	if dig(t, c, "image") != "ghcr.io/gopoly/gopoly:v1" {
		t.Errorf("image %v", dig(t, c, "image"))
	}
	args := append(strs(t, dig(t, c, "command")), strs(t, dig(t, c, "args"))...)
	wantArgs := []string{"gopoly", "experiment", "run", "/spec/spec.yaml", "--shard", "$(JOB_COMPLETION_INDEX)/3", "--workers", "1",
		"--out", "/data/exp/cli/shards/$(JOB_COMPLETION_INDEX)"}
	if !slices.Equal(args, wantArgs) {
		t.Errorf("shard container runs %q, want %q", args, wantArgs)
	}
	if dig(t, c, "env", 0, "name") != "JOB_COMPLETION_INDEX" ||
		dig(t, c, "env", 0, "valueFrom", "fieldRef", "fieldPath") != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("env %v: the index is not the completion index", dig(t, c, "env"))
	}
	volumes := map[string]any{}
	for _, v := range dig(t, pod, "volumes").([]any) {
		volumes[dig(t, v, "name").(string)] = v
	}
	mounts := map[string]any{}
	for _, m := range dig(t, c, "volumeMounts").([]any) {
		mounts[dig(t, m, "mountPath").(string)] = dig(t, m, "name")
	}
	if v := volumes[fmt.Sprint(mounts["/data"])]; v == nil || dig(t, v, "persistentVolumeClaim", "claimName") != "gopoly-runs" {
		t.Errorf("/data is %v, want the claim gopoly-runs", v)
	}
	if v := volumes[fmt.Sprint(mounts["/spec"])]; v == nil || dig(t, v, "configMap", "name") != "my-experiment-v2-spec" {
		t.Errorf("/spec is %v, want the ConfigMap", v)
	}

	mc := dig(t, merge, "spec", "template", "spec", "containers", 0)
	margs := append(strs(t, dig(t, mc, "command")), strs(t, dig(t, mc, "args"))...)
	wantMerge := []string{"gopoly", "experiment", "merge", "--wait", k8sMergeWait.String(), "/data/exp/cli/shards/0", "/data/exp/cli/shards/1", "/data/exp/cli/shards/2",
		"--out", "/data/exp/cli"}
	if !slices.Equal(margs, wantMerge) {
		t.Errorf("merge container runs %q, want %q", margs, wantMerge)
	}
	if v := dig(t, merge, "spec", "template", "spec", "volumes", 0); dig(t, v, "persistentVolumeClaim", "claimName") != "gopoly-runs" {
		t.Errorf("merge volume %v", v)
	}
	if _, ok := dig(t, merge, "spec").(map[string]any)["completionMode"]; ok {
		t.Error("the merge Job is indexed")
	}
}

// What the pods run, run here: each index's args with the index put in
// and /spec and /data moved to a temporary directory, then the merge,
// give the files of one run.
func TestExperimentManifestRunsLocally(t *testing.T) {
	dir := t.TempDir()
	spec := writeK8sSpec(t, dir, "cli.yaml")
	const shards = 4 // more than seeds / 2: one shard plays one seed
	stdout, stderr, code := experimentRun(t, "manifest", spec, "--k8s", "--image", "gopoly", "--out-volume", "v", "--shards", fmt.Sprint(shards))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	docs := manifestDocs(t, stdout)
	specDir, data := filepath.Join(dir, "spec"), filepath.Join(dir, "data")
	os.MkdirAll(specDir, 0o755)
	if err := os.WriteFile(filepath.Join(specDir, "spec.yaml"), []byte(dig(t, docs[0], "data", "spec.yaml").(string)), 0o644); err != nil {
		t.Fatal(err)
	}
	local := func(args []string, index int) []string {
		var out []string
		for _, a := range args {
			a = strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", fmt.Sprint(index))
			a = strings.Replace(a, "/spec/", specDir+"/", 1)
			if strings.HasPrefix(a, "/data/") {
				a = data + a[len("/data"):]
			}
			out = append(out, a)
		}
		return out[1:] // experimentRun adds "experiment"
	}
	runArgs := strs(t, dig(t, docs[1], "spec", "template", "spec", "containers", 0, "args"))
	for i := range shards {
		if _, stderr, code := experimentRun(t, append(local(runArgs, i), "--workers", "1")...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
	}
	mergeArgs := strs(t, dig(t, docs[2], "spec", "template", "spec", "containers", 0, "args"))
	if _, stderr, code := experimentRun(t, local(mergeArgs, -1)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	single := filepath.Join(dir, "single")
	if _, stderr, code := experimentRun(t, "run", filepath.Join(specDir, "spec.yaml"), "--out", single, "--workers", "1"); code != 0 {
		t.Fatalf("single run: exit %d: %s", code, stderr)
	}
	sameFiles(t, single, filepath.Join(data, "runs", "cli"), "the merged shards of the manifest differ from one run",
		"spec.yaml", "run.json", "results.jsonl", "summary.json", "variants/trio/summary.json", "winrates.svg")
}

// Objects are named after the spec file, always as DNS-1123 labels.
func TestK8sBaseName(t *testing.T) {
	long := strings.Repeat("Abc_", 30) + ".yaml"
	for _, c := range []struct{ file, want string }{
		{"specs/personalities.yaml", "personalities"},
		{"My_Experiment.v2.yml", "my-experiment-v2"},
		{"--x--.yaml", "x"},
		{"Ünïcode spec!.yaml", "n-code-spec"},
		{"___.yaml", ""},
		{long, strings.TrimRight(strings.Repeat("abc-", 14), "-")},
	} {
		got := k8sBaseName(c.file)
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.file, got, c.want)
		}
		if got != "" && (!validLabel(got+k8sSuffixes.shards) || !validLabel(got+k8sSuffixes.merge) || !validLabel(got+k8sSuffixes.spec)) {
			t.Errorf("%q: %q makes names that are not DNS-1123 labels", c.file, got)
		}
	}
	for _, s := range []string{"", "-a", "a-", "A", "a_b", strings.Repeat("a", 64)} {
		if validLabel(s) {
			t.Errorf("%q passes as a DNS-1123 label", s)
		}
	}
}

// Bad flags are bad input (exit 2) with a message naming the command.
func TestExperimentManifestBadFlags(t *testing.T) {
	dir := t.TempDir()
	spec := writeK8sSpec(t, dir, "cli.yaml")
	badSpec := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badSpec, []byte("name: x\nseeds: {start: 1, count: 2}\nvariants:\n  - name: a\n    seats: [baseline, nobody]\n"), 0o644)
	unnamed := writeK8sSpec(t, dir, "___.yaml")
	ok := []string{"--k8s", "--image", "img", "--out-volume", "claim"}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{spec, "--out-volume", "claim", "--k8s"}, "experiment manifest: --image is required"},
		{[]string{spec, "--image", "img", "--k8s"}, "experiment manifest: --out-volume is required"},
		{[]string{spec, "--image", "img", "--out-volume", "claim"}, "experiment manifest: give the target: --k8s"},
		{append([]string{spec, "--shards", "0"}, ok...), "experiment manifest: --shards 0: want 1 or more"},
		{append([]string{spec, "--shards", "-2"}, ok...), "--shards -2: want 1 or more"},
		{append([]string{filepath.Join(dir, "none.yaml")}, ok...), "no such file"},
		{append([]string{badSpec}, ok...), "bad.yaml:5: variants[0].seats[1]: unknown bot"},
		{append([]string{spec, "--out", "../up"}, ok...), `--out "../up": want a clean relative path`},
		{append([]string{spec, "--out", "/abs"}, ok...), `--out "/abs"`},
		{append([]string{spec, "--out", "a/$(X)"}, ok...), `--out "a/$(X)"`},
		{[]string{spec, "--k8s", "--image", "img", "--out-volume", "Claim_1"}, `--out-volume "Claim_1"`},
		{[]string{spec, "--k8s", "--image", "a b", "--out-volume", "c"}, `--image "a b"`},
		{append([]string{unnamed}, ok...), "no letters or digits in the file name"},
	} {
		stdout, stderr, code := experimentRun(t, append([]string{"manifest"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.msg) || stdout != "" {
			t.Errorf("%q: exit %d, stdout %.40q, stderr %q; want 2 and %q", c.args, code, stdout, stderr, c.msg)
		}
	}
	// Valid flags give a manifest that names the spec's shards.
	stdout, _, code := experimentRun(t, append([]string{"manifest", spec, "--shards", "2", "--parallelism", "1"}, ok...)...)
	if code != 0 || !bytes.Contains([]byte(stdout), []byte("$(JOB_COMPLETION_INDEX)/2")) || !strings.Contains(stdout, "parallelism: 1\n") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}
