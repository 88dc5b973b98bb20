package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// strictDecode decodes a document of the manifest into an object of the
// upstream Kubernetes types, refusing any field they do not have: what
// the API server's strict field validation would refuse.
func strictDecode(t *testing.T, doc map[string]any, into any) {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
}

// The manifest decodes strictly into k8s.io/api's ConfigMap and Jobs,
// and holds the wiring a cluster acts on: indexed completion with the
// index in the args, retries per index, the failure policy, the
// requests matching --workers, and a merge that waits for the shards.
func TestExperimentManifestK8sAPI(t *testing.T) {
	dir := t.TempDir()
	spec := writeK8sSpec(t, dir, "exp.yaml")
	stdout, stderr, code := experimentRun(t, "manifest", spec, "--k8s", "--image", "reg/gopoly:1", "--out-volume", "runs",
		"--shards", "5", "--parallelism", "2", "--workers", "3", "--memory", "2Gi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	docs := manifestDocs(t, stdout)
	if len(docs) != 3 {
		t.Fatalf("%d documents", len(docs))
	}
	var cm corev1.ConfigMap
	var run, merge batchv1.Job
	strictDecode(t, docs[0], &cm)
	strictDecode(t, docs[1], &run)
	strictDecode(t, docs[2], &merge)
	if cm.Kind != "ConfigMap" || run.Kind != "Job" || merge.Kind != "Job" || cm.Data["spec.yaml"] != k8sSpec {
		t.Errorf("kinds %s %s %s; ConfigMap data %v", cm.Kind, run.Kind, merge.Kind, cm.Data)
	}

	js := run.Spec
	if js.CompletionMode == nil || *js.CompletionMode != batchv1.IndexedCompletion ||
		js.Completions == nil || *js.Completions != 5 || js.Parallelism == nil || *js.Parallelism != 2 {
		t.Errorf("shards Job: completion mode %v, completions %v, parallelism %v", js.CompletionMode, js.Completions, js.Parallelism)
	}
	if js.BackoffLimitPerIndex == nil || *js.BackoffLimitPerIndex != k8sRetries || js.BackoffLimit != nil {
		t.Errorf("backoffLimitPerIndex %v, backoffLimit %v: want retries per index only", js.BackoffLimitPerIndex, js.BackoffLimit)
	}
	pod := js.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %s: backoffLimitPerIndex needs Never", pod.RestartPolicy)
	}
	if p := js.PodFailurePolicy; p == nil || len(p.Rules) != 2 ||
		p.Rules[0].Action != batchv1.PodFailurePolicyActionFailIndex || p.Rules[0].OnExitCodes == nil ||
		p.Rules[0].OnExitCodes.Operator != batchv1.PodFailurePolicyOnExitCodesOpIn || !slices.Equal(p.Rules[0].OnExitCodes.Values, []int32{2}) ||
		p.Rules[1].Action != batchv1.PodFailurePolicyActionIgnore || len(p.Rules[1].OnPodConditions) != 1 ||
		p.Rules[1].OnPodConditions[0].Type != corev1.DisruptionTarget {
		t.Errorf("podFailurePolicy %+v: want exit 2 to fail its index and disruptions ignored", p)
	}
	c := pod.Containers[0]
	if len(c.Env) != 1 || c.Env[0].Name != k8sIndexEnv || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.FieldRef == nil ||
		c.Env[0].ValueFrom.FieldRef.FieldPath != "metadata.annotations['"+batchv1.JobCompletionIndexAnnotation+"']" {
		t.Errorf("env %+v: the index is not the completion index", c.Env)
	}
	wantArgs := []string{"experiment", "run", "/spec/spec.yaml", "--shard", "$(JOB_COMPLETION_INDEX)/5", "--workers", "3",
		"--out", "/data/runs/cli/shards/$(JOB_COMPLETION_INDEX)"}
	if !slices.Equal(c.Args, wantArgs) {
		t.Errorf("shard args %q, want %q", c.Args, wantArgs)
	}
	cpu, mem := c.Resources.Requests[corev1.ResourceCPU], c.Resources.Requests[corev1.ResourceMemory]
	if cpu.Cmp(resource.MustParse("3")) != 0 || mem.Cmp(resource.MustParse("2Gi")) != 0 {
		t.Errorf("shard requests cpu %s memory %s, want 3 (its workers) and 2Gi", cpu.String(), mem.String())
	}

	ms := merge.Spec
	if ms.CompletionMode != nil || ms.Completions != nil || ms.BackoffLimit == nil || ms.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("merge Job: completion mode %v, completions %v, backoffLimit %v, restartPolicy %s",
			ms.CompletionMode, ms.Completions, ms.BackoffLimit, ms.Template.Spec.RestartPolicy)
	}
	mc := ms.Template.Spec.Containers[0]
	want := []string{"experiment", "merge", "--wait", k8sMergeWait.String()}
	for i := range 5 {
		want = append(want, "/data/runs/cli/shards/"+string(rune('0'+i)))
	}
	want = append(want, "--out", "/data/runs/cli")
	if !slices.Equal(mc.Args, want) {
		t.Errorf("merge args %q, want %q", mc.Args, want)
	}
	if _, ok := mc.Resources.Requests[corev1.ResourceCPU]; !ok {
		t.Error("the merge requests no CPU")
	}
}

// A merge told to wait gives up, naming the shards, when they are not
// complete in time, and merges nothing.
func TestExperimentMergeWait(t *testing.T) {
	dir := t.TempDir()
	shard := filepath.Join(dir, "shards", "0")
	out := filepath.Join(dir, "merged")
	_, stderr, code := experimentRun(t, "merge", "--wait", "1s", shard, "--out", out)
	if code == 0 || !strings.Contains(stderr, "1 shard of 1 not complete: "+shard) || !strings.Contains(stderr, "waiting for 1 of 1 shards") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if fileExists(out) {
		t.Error("the merge wrote its output")
	}
}
