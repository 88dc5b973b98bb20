package extbot_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// setuptoolsCheck fails when the venv's python cannot build the SDK
// without the network: setuptools before 70.1 builds wheels with the
// wheel package.
const setuptoolsCheck = `import importlib.util, sys
import setuptools
v = tuple(int(x) for x in setuptools.__version__.split(".")[:2] if x.isdigit())
if v < (70, 1) and importlib.util.find_spec("wheel") is None:
    sys.exit("setuptools %s needs the wheel package to build a wheel" % setuptools.__version__)
`

// pip installs the Python SDK from sdk/python with no network (the
// system's setuptools, no build isolation, no index): the module alone,
// importable from anywhere with no path set; and the example bot, alone
// in a directory of its own, plays a whole game through it.
func TestPythonSDKInstall(t *testing.T) {
	py := python(t)
	// Nothing of the caller's environment may supply the module: not
	// PYTHONPATH, the user's site packages, nor a pip configuration.
	t.Setenv("PYTHONPATH", "")
	t.Setenv("PYTHONNOUSERSITE", "1")
	t.Setenv("PIP_CONFIG_FILE", os.DevNull)
	tmp := t.TempDir()
	venv := filepath.Join(tmp, "venv")
	run := func(dir, name string, args ...string) ([]byte, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		return cmd.CombinedOutput()
	}
	const need = "(Debian: apt-get install python3-venv python3-setuptools python3-wheel)"
	// The venv sees the system's site packages, so the system's python3
	// is asked first: a venv takes seconds to make.
	if out, err := run(tmp, py, "-c", setuptoolsCheck); err != nil {
		unavailable(t, fmt.Sprintf("python3 cannot build the SDK offline %s: %v: %s", need, err, bytes.TrimSpace(out)), "pip install ./sdk/python is")
	}
	if out, err := run(tmp, py, "-m", "venv", "--system-site-packages", venv); err != nil {
		unavailable(t, fmt.Sprintf("python3 -m venv fails %s: %v: %s", need, err, bytes.TrimSpace(out)), "pip install ./sdk/python is")
	}
	vpy := filepath.Join(venv, "bin", "python")

	// pip builds in the source directory (build/, *.egg-info): a copy,
	// not the checkout.
	src := filepath.Join(tmp, "src")
	if err := os.CopyFS(src, os.DirFS("../sdk/python")); err != nil {
		t.Fatal(err)
	}
	if out, err := run(tmp, vpy, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--disable-pip-version-check", src); err != nil {
		t.Fatalf("pip install ./sdk/python: %v\n%s", err, out)
	}

	out, err := run(tmp, vpy, "-c", `import gopoly_bot, importlib.metadata as m
print(gopoly_bot.__file__)
for f in m.files("gopoly-bot"):
    print(f)`)
	if err != nil {
		t.Fatalf("import gopoly_bot after the install: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if !strings.HasPrefix(lines[0], venv+string(filepath.Separator)) {
		t.Errorf("gopoly_bot was imported from %s, not from the venv %s", lines[0], venv)
	}
	for _, f := range lines[1:] {
		if f != "gopoly_bot.py" && !strings.HasPrefix(f, "gopoly_bot-") && !strings.HasPrefix(f, "__pycache__/gopoly_bot.") {
			t.Errorf("the install holds %s besides the module", f)
		}
	}

	bot := t.TempDir()
	example, err := os.ReadFile("../sdk/python/example_bot.py")
	if err == nil {
		err = os.WriteFile(filepath.Join(bot, "example_bot.py"), example, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(tmp, "bot.log")
	res := sim(t, "max_rounds: 60", 1, fmt.Sprintf("exec:dir=%s log=%s %s example_bot.py", bot, log, vpy), "baseline")
	if a := res[0].Accounts[0]; a.Fallbacks != 0 || a.Retirements != 0 {
		t.Errorf("the example bot on the installed SDK: %d fallback answers, %d retirements:\n%s", a.Fallbacks, a.Retirements, clipLog(readLog(t, log)))
	}
}
