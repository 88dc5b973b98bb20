package main

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/arena"
)

// The Kubernetes objects the manifest holds, reduced to the fields it
// sets: typed values rather than a template, so that what the spec, the
// image or a path holds cannot break the YAML.

type k8sMeta struct {
	Name   string            `yaml:"name,omitempty"`
	Labels map[string]string `yaml:"labels,omitempty"`
}

type k8sConfigMap struct {
	APIVersion string            `yaml:"apiVersion"`
	Kind       string            `yaml:"kind"`
	Metadata   k8sMeta           `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
}

type k8sJob struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   k8sMeta    `yaml:"metadata"`
	Spec       k8sJobSpec `yaml:"spec"`
}

type k8sJobSpec struct {
	CompletionMode       string               `yaml:"completionMode,omitempty"`
	Completions          int                  `yaml:"completions,omitempty"`
	Parallelism          int                  `yaml:"parallelism,omitempty"`
	BackoffLimit         *int                 `yaml:"backoffLimit,omitempty"`
	BackoffLimitPerIndex *int                 `yaml:"backoffLimitPerIndex,omitempty"`
	PodFailurePolicy     *k8sPodFailurePolicy `yaml:"podFailurePolicy,omitempty"`
	Template             k8sPodTemplate       `yaml:"template"`
}

type k8sPodFailurePolicy struct {
	Rules []k8sPodFailureRule `yaml:"rules"`
}

type k8sPodFailureRule struct {
	Action          string               `yaml:"action"`
	OnExitCodes     *k8sExitCodes        `yaml:"onExitCodes,omitempty"`
	OnPodConditions []k8sPodConditionRef `yaml:"onPodConditions,omitempty"`
}

type k8sExitCodes struct {
	ContainerName string `yaml:"containerName"`
	Operator      string `yaml:"operator"`
	Values        []int  `yaml:"values,flow"`
}

type k8sPodConditionRef struct {
	Type string `yaml:"type"`
}

type k8sPodTemplate struct {
	Metadata k8sMeta    `yaml:"metadata"`
	Spec     k8sPodSpec `yaml:"spec"`
}

type k8sPodSpec struct {
	RestartPolicy string         `yaml:"restartPolicy"`
	Containers    []k8sContainer `yaml:"containers"`
	Volumes       []k8sVolume    `yaml:"volumes"`
}

type k8sContainer struct {
	Name         string           `yaml:"name"`
	Image        string           `yaml:"image"`
	Command      []string         `yaml:"command"`
	Args         []string         `yaml:"args"`
	Env          []k8sEnvVar      `yaml:"env,omitempty"`
	Resources    k8sResources     `yaml:"resources"`
	VolumeMounts []k8sVolumeMount `yaml:"volumeMounts"`
}

// k8sResources are a container's requests: the scheduler places a pod
// where they fit, and the shard plays on as many workers as it asked
// CPUs for, rather than on every core of its node.
type k8sResources struct {
	Requests map[string]string `yaml:"requests"`
}

type k8sEnvVar struct {
	Name      string          `yaml:"name"`
	ValueFrom k8sEnvVarSource `yaml:"valueFrom"`
}

type k8sEnvVarSource struct {
	FieldRef k8sFieldRef `yaml:"fieldRef"`
}

type k8sFieldRef struct {
	FieldPath string `yaml:"fieldPath"`
}

type k8sVolumeMount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly,omitempty"`
}

type k8sVolume struct {
	Name                  string                `yaml:"name"`
	ConfigMap             *k8sConfigMapSource   `yaml:"configMap,omitempty"`
	PersistentVolumeClaim *k8sVolumeClaimSource `yaml:"persistentVolumeClaim,omitempty"`
}

type k8sConfigMapSource struct {
	Name string `yaml:"name"`
}

type k8sVolumeClaimSource struct {
	ClaimName string `yaml:"claimName"`
}

// Where the pods see the spec and the volume, and the label that tells
// the objects applied first from the merge Job applied after them.
const (
	k8sSpecDir  = "/spec"
	k8sDataDir  = "/data"
	k8sStepKey  = "gopoly.io/step"
	k8sIndexEnv = "JOB_COMPLETION_INDEX"
	// k8sIndexField is where the pod finds its index; the Job controller
	// sets JOB_COMPLETION_INDEX from it too, but the container declares
	// the variable itself so that $(JOB_COMPLETION_INDEX) in its args
	// expands whatever the controller does.
	k8sIndexField = "metadata.annotations['batch.kubernetes.io/job-completion-index']"
	// k8sRetries is how often a shard's pod is started again after a
	// failure before its index is given up: each start resumes the shard.
	k8sRetries = 3
	// k8sMergeWait is how long the merge waits for the shards.
	k8sMergeWait = 7 * 24 * time.Hour
)

// dns1123Label is a Kubernetes object name that is also valid as a label
// value and a host name.
var dns1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// validLabel reports whether s is a DNS-1123 label: at most 63 of
// [a-z0-9-], beginning and ending with a letter or digit.
func validLabel(s string) bool { return len(s) <= 63 && dns1123Label.MatchString(s) }

// dns1123Subdomain is what a PersistentVolumeClaim may be named.
var dns1123Subdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// k8sSuffixes name the objects of one experiment after its base name;
// the longest bounds the base.
var k8sSuffixes = struct{ spec, shards, merge string }{"-spec", "-shards", "-merge"}

// k8sBaseName derives the objects' base name from the spec file's name:
// lower case, runs of anything but letters and digits as one '-', cut so
// that the longest name stays a DNS-1123 label. It is "" when nothing of
// the name is left.
func k8sBaseName(file string) string {
	name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	base := b.String()
	base = base[:min(len(base), 63-len(k8sSuffixes.shards))]
	return strings.TrimRight(base, "-")
}

// k8sQuantity is a memory quantity as Kubernetes writes one.
var k8sQuantity = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?([EPTGMK]i?|[kmu])?$`)

// safeVolumePath is what --out may hold: it goes into the pods' args,
// where Kubernetes expands $(...), and into the shard directories' names.
var safeVolumePath = regexp.MustCompile(`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$`)

// k8sOptions are a manifest's settings, checked.
type k8sOptions struct {
	image, claim, out, memory string
	shards, parallel, workers int
}

// k8sManifest writes the objects that run e on a cluster: the spec as a
// ConfigMap and an Indexed Job of opts.shards shards (labelled step
// run), then the Job that merges them (step merge). All are applied at
// once: the merge waits on the volume until every shard is complete
// (experiment merge --wait), which needs no access to the Kubernetes API
// from the pod and holds only a small request while it waits.
func k8sManifest(w io.Writer, e *arena.Experiment, base string, o k8sOptions) error {
	names := struct{ spec, shards, merge string }{base + k8sSuffixes.spec, base + k8sSuffixes.shards, base + k8sSuffixes.merge}
	for _, n := range []string{names.spec, names.shards, names.merge} {
		if !validLabel(n) {
			// k8sBaseName makes valid names; a change there must not
			// slip through to a cluster that would refuse them.
			return fmt.Errorf("%q is not a DNS-1123 label", n)
		}
	}
	labels := func(step string) map[string]string {
		return map[string]string{"app.kubernetes.io/name": "gopoly", "app.kubernetes.io/instance": base, k8sStepKey: step}
	}
	out := path.Join(k8sDataDir, o.out)
	shardDir := path.Join(out, "shards")
	specFile := path.Join(k8sSpecDir, arena.SpecFile)
	data := k8sVolume{Name: "data", PersistentVolumeClaim: &k8sVolumeClaimSource{ClaimName: o.claim}}
	dataMount := k8sVolumeMount{Name: "data", MountPath: k8sDataDir}
	retries := k8sRetries

	spec := k8sConfigMap{APIVersion: "v1", Kind: "ConfigMap", Metadata: k8sMeta{Name: names.spec, Labels: labels("run")},
		Data: map[string]string{arena.SpecFile: string(e.Source)}}

	index := "$(" + k8sIndexEnv + ")"
	run := k8sJob{APIVersion: "batch/v1", Kind: "Job", Metadata: k8sMeta{Name: names.shards, Labels: labels("run")},
		Spec: k8sJobSpec{
			CompletionMode: "Indexed", Completions: o.shards, Parallelism: o.parallel,
			// Per index, so that one shard failing neither stops the
			// others nor uses up their retries.
			BackoffLimitPerIndex: &retries,
			PodFailurePolicy: &k8sPodFailurePolicy{Rules: []k8sPodFailureRule{
				// Exit 2 is bad input (a directory that does not fit the
				// spec): starting again would not help.
				{Action: "FailIndex", OnExitCodes: &k8sExitCodes{ContainerName: "gopoly", Operator: "In", Values: []int{2}}},
				// A pod evicted or preempted did nothing wrong: its
				// shard resumes without counting a retry.
				{Action: "Ignore", OnPodConditions: []k8sPodConditionRef{{Type: "DisruptionTarget"}}},
			}},
			Template: k8sPodTemplate{Metadata: k8sMeta{Labels: labels("run")}, Spec: k8sPodSpec{
				// Never: backoffLimitPerIndex wants each retry in a new
				// pod; the shard's directory on the volume carries over.
				RestartPolicy: "Never",
				Containers: []k8sContainer{{
					Name: "gopoly", Image: o.image, Command: []string{"gopoly"},
					Args: []string{"experiment", "run", specFile,
						"--shard", index + "/" + strconv.Itoa(o.shards),
						"--workers", strconv.Itoa(o.workers),
						"--out", shardDir + "/" + index},
					Resources:    k8sResources{Requests: map[string]string{"cpu": strconv.Itoa(o.workers), "memory": o.memory}},
					Env:          []k8sEnvVar{{Name: k8sIndexEnv, ValueFrom: k8sEnvVarSource{FieldRef: k8sFieldRef{FieldPath: k8sIndexField}}}},
					VolumeMounts: []k8sVolumeMount{{Name: "spec", MountPath: k8sSpecDir, ReadOnly: true}, dataMount},
				}},
				Volumes: []k8sVolume{{Name: "spec", ConfigMap: &k8sConfigMapSource{Name: names.spec}}, data},
			}},
		}}

	// The shards are named one by one rather than by a glob, which
	// would need a shell in the image; a shard missing is then reported
	// by name.
	mergeArgs := []string{"experiment", "merge", "--wait", k8sMergeWait.String()}
	for i := range o.shards {
		mergeArgs = append(mergeArgs, path.Join(shardDir, strconv.Itoa(i)))
	}
	mergeArgs = append(mergeArgs, "--out", out)
	mergeRetries := 2
	merge := k8sJob{APIVersion: "batch/v1", Kind: "Job", Metadata: k8sMeta{Name: names.merge, Labels: labels("merge")},
		Spec: k8sJobSpec{
			BackoffLimit: &mergeRetries,
			Template: k8sPodTemplate{Metadata: k8sMeta{Labels: labels("merge")}, Spec: k8sPodSpec{
				RestartPolicy: "Never",
				Containers: []k8sContainer{{Name: "gopoly", Image: o.image, Command: []string{"gopoly"}, Args: mergeArgs,
					Resources:    k8sResources{Requests: map[string]string{"cpu": "100m", "memory": o.memory}},
					VolumeMounts: []k8sVolumeMount{dataMount}}},
				Volumes: []k8sVolume{data},
			}},
		}}

	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	for _, doc := range []any{spec, run, merge} {
		if err := enc.Encode(doc); err != nil {
			return err
		}
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func newExperimentManifestCmd() *cobra.Command {
	var (
		k8s               bool
		image, claim, out string
		memory            string
		shards, parallel  int
		workers           int
	)
	cmd := &cobra.Command{
		Use:   "manifest SPEC.yaml --k8s --image IMAGE --out-volume CLAIM",
		Short: "Print the Kubernetes objects that run an experiment's shards on a cluster and merge them",
		Long: `Prints YAML for kubectl: a ConfigMap holding the spec, an Indexed Job whose
pod i runs "gopoly experiment run --shard i/N --workers W" into
OUT/shards/i on the PersistentVolumeClaim CLAIM (mounted at /data), each
pod requesting W CPUs and --memory, and a Job that waits until every shard
on the volume is complete and merges them into OUT (default runs/NAME).
Apply it whole:

  gopoly experiment manifest spec.yaml --k8s --image IMG --out-volume runs > exp.yaml
  kubectl apply -f exp.yaml
  kubectl wait --for=condition=complete --timeout=24h job/NAME-merge

The objects are named after the spec file. A failed shard is retried
(resuming) up to 3 times, and one interrupted by an eviction is resumed
without counting; needs Kubernetes 1.29 or later (backoffLimitPerIndex).
The merge waits up to 7 days.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := cmdName(cmd)
			bad := func(format string, a ...any) error {
				return usageErr(fmt.Errorf("%s: %s", name, fmt.Sprintf(format, a...)))
			}
			switch {
			case !k8s:
				return bad("give the target: --k8s (the only one)")
			case image == "":
				return bad("--image is required: an image with gopoly on its PATH")
			case strings.ContainsFunc(image, func(r rune) bool { return r <= ' ' }):
				return bad("--image %q: no spaces or control characters", image)
			case claim == "":
				return bad("--out-volume is required: the PersistentVolumeClaim the shards write to")
			case len(claim) > 253 || !dns1123Subdomain.MatchString(claim):
				return bad("--out-volume %q: a claim name is lower-case letters, digits, '-' and '.' (DNS-1123)", claim)
			case shards < 1:
				return bad("--shards %d: want 1 or more", shards)
			case workers < 1:
				return bad("--workers %d: want 1 or more", workers)
			case !k8sQuantity.MatchString(memory):
				return bad("--memory %q: want a Kubernetes quantity such as 512Mi or 2Gi", memory)
			case parallel < 0:
				return bad("--parallelism %d: want 0 (all shards at once) or more", parallel)
			}
			e, err := arena.LoadExperiment(args[0])
			if err != nil {
				return usageErr(fmt.Errorf("%s: %w", name, err))
			}
			if out == "" {
				out = path.Join("runs", e.Name)
			}
			if !safeVolumePath.MatchString(out) || !filepath.IsLocal(out) || path.Clean(out) != out {
				return bad("--out %q: want a clean relative path in the volume, of letters, digits and . _ - /", out)
			}
			base := k8sBaseName(args[0])
			if base == "" {
				return bad("%s: no letters or digits in the file name to name the Kubernetes objects after: rename it", args[0])
			}
			if parallel == 0 || parallel > shards {
				parallel = shards
			}
			if err := k8sManifest(cmd.OutOrStdout(), e, base, k8sOptions{image: image, claim: claim, out: out, shards: shards, parallel: parallel, workers: workers, memory: memory}); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&k8s, "k8s", false, "print Kubernetes objects (required: the only target)")
	f.StringVar(&image, "image", "", "container image with gopoly on its PATH (required)")
	f.StringVar(&claim, "out-volume", "", "PersistentVolumeClaim the shards and the merge write to, mounted at /data (required)")
	f.StringVar(&out, "out", "", "output directory inside the volume (default runs/NAME); shards go to OUT/shards/i")
	f.IntVar(&shards, "shards", 4, "number of shards: pods of the Indexed Job")
	f.IntVar(&parallel, "parallelism", 0, "shards running at once (0: all)")
	f.IntVar(&workers, "workers", 1, "CPUs each shard's pod requests, and the workers it plays on")
	f.StringVar(&memory, "memory", "1Gi", "memory each pod requests")
	return cmd
}
