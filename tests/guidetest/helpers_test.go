package guidetest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	tfjson "github.com/hashicorp/terraform-json"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
)

// guideFiles returns the Terraform blocks of the generated guide page
// docs/guides/<name>.md, by the file name each names on its first line
// ("# resources.tf").
func guideFiles(t *testing.T, name string) map[string]string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information")
	}
	page := filepath.Join(filepath.Dir(file), "..", "..", "docs", "guides", name+".md")
	b, err := os.ReadFile(page) //nolint:gosec // G304: a page of the repository
	if err != nil {
		t.Fatalf("%v (run make generate)", err)
	}
	files := map[string]string{}
	var block []string
	in := false
	for line := range strings.Lines(string(b)) {
		line = strings.TrimRight(line, "\n")
		switch {
		case !in && line == "```terraform":
			in, block = true, nil
		case in && line == "```":
			in = false
			first, ok := strings.CutPrefix(block[0], "# ")
			if !ok || !strings.HasSuffix(first, ".tf") && !strings.HasSuffix(first, ".tfquery.hcl") {
				t.Fatalf("%s: a terraform block does not name its file on its first line: %q", page, block[0])
			}
			if _, dup := files[first]; dup {
				t.Fatalf("%s: two blocks named %s", page, first)
			}
			files[first] = strings.Join(block, "\n") + "\n"
		case in:
			block = append(block, line)
		}
	}
	if in {
		t.Fatalf("%s: an unterminated terraform block", page)
	}
	return files
}

// replaceResources returns config with each resource block of with put
// in place of the block of the same address, and with's other blocks
// (variables) appended.
func replaceResources(t *testing.T, config, with string) string {
	t.Helper()
	f, diags := hclwrite.ParseConfig([]byte(config), "config.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	w, diags := hclwrite.ParseConfig([]byte(with), "with.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, b := range w.Body().Blocks() {
		if b.Type() == "resource" {
			old := f.Body().FirstMatchingBlock("resource", b.Labels())
			if old == nil {
				t.Fatalf("no resource %v to replace", b.Labels())
			}
			f.Body().RemoveBlock(old)
		}
		f.Body().AppendNewline()
		f.Body().AppendBlock(b)
	}
	return string(f.Bytes())
}

// workspace is a working directory with the provider, served in this
// process, aimed at an emulator; the CLI is TF_ACC_TERRAFORM_PATH.
type workspace struct {
	t   *testing.T
	ws  *tfrun.Workspace
	dir string
}

func newWorkspace(t *testing.T, emu *acctest.Emulator) *workspace {
	t.Helper()
	ws := acctest.NewWorkspace(context.Background(), t)
	w := &workspace{t: t, ws: ws, dir: ws.Dir}
	w.write("main.tf", emu.ProviderConfig(emulatortest.RequiredProviders()))
	w.run("init", "-no-color")
	return w
}

func (w *workspace) write(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *workspace) read(name string) string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, name)) //nolint:gosec // G304: the test's working directory
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// run runs one CLI command with extra environment and returns its
// standard output; it fails the test when the command fails.
func (w *workspace) run(args ...string) string {
	w.t.Helper()
	return w.runEnv(nil, args...)
}

func (w *workspace) runEnv(env []string, args ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws := *w.ws
	ws.Env = append(append([]string{}, ws.Env...), env...)
	out, err := ws.Output(ctx, args...)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(out)
}

// plan saves a plan and returns it as `show -json` gives it, and the plan's
// human-readable output.
func (w *workspace) plan(env ...string) (*tfjson.Plan, string) {
	w.t.Helper()
	out := w.runEnv(env, "plan", "-no-color", "-out=tfplan")
	var p tfjson.Plan
	if err := json.Unmarshal([]byte(w.run("show", "-json", "tfplan")), &p); err != nil {
		w.t.Fatal(err)
	}
	return &p, out
}
