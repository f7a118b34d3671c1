package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
)

// report collects the rows every test adds, printed (and written to
// $RELIABILITY_REPORT_DIR) when the package's tests end.
var report struct {
	mu     sync.Mutex
	tables map[string][][]string
	heads  map[string][]string
	notes  []string
}

func addRow(table string, head []string, row ...string) {
	report.mu.Lock()
	defer report.mu.Unlock()
	if report.tables == nil {
		report.tables, report.heads = map[string][][]string{}, map[string][]string{}
	}
	report.heads[table] = head
	report.tables[table] = append(report.tables[table], row)
}

func addNote(format string, args ...any) {
	report.mu.Lock()
	defer report.mu.Unlock()
	report.notes = append(report.notes, fmt.Sprintf(format, args...))
}

func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC") == "" {
		fmt.Println("reliability tests drive the Terraform CLI: set TF_ACC=1 (make test-reliability)")
		os.Exit(m.Run())
	}
	code := acctest.RunTests(m)
	printReport()
	os.Exit(code)
}

func printReport() {
	report.mu.Lock()
	defer report.mu.Unlock()
	var out bytes.Buffer
	names := make([]string, 0, len(report.tables))
	for n := range report.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		rows := report.tables[n]
		sort.SliceStable(rows, func(i, j int) bool { return strings.Join(rows[i], "\x00") < strings.Join(rows[j], "\x00") })
		fmt.Fprintf(&out, "\n== %s (%d rows)\n", n, len(rows))
		tw := tabwriter.NewWriter(&out, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(report.heads[n], "\t"))
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		_ = tw.Flush()
	}
	if len(report.notes) > 0 {
		fmt.Fprintln(&out, "\n== figures")
		sort.Strings(report.notes)
		for _, n := range report.notes {
			fmt.Fprintln(&out, "- "+n)
		}
	}
	fmt.Print(out.String())
	if d := os.Getenv("RELIABILITY_REPORT_DIR"); d != "" {
		_ = os.MkdirAll(d, 0o755)
		_ = os.WriteFile(filepath.Join(d, "report.txt"), out.Bytes(), 0o600)
	}
}

// emu is the harness's emulator on a loopback port for t, with the
// provider blocks these tests use.
type emu struct {
	*acctest.Emulator
}

func newEmu(t testing.TB) *emu {
	t.Helper()
	return &emu{acctest.NewEmulator(t)}
}

// providerBlock is the harness's provider block with these tests' short
// per-attempt timeout, so a delay fault runs past it quickly, and extra
// arguments.
func (e *emu) providerBlock(extra string) string {
	return e.ProviderConfig(emulatortest.RequiredProviders(), emulatortest.HTTPTimeout(attemptTimeout), emulatortest.ProviderArguments(extra))
}

// attemptTimeout is the provider's http_timeout in these tests; delayFault
// holds an answer longer than that.
const (
	attemptTimeout = 2 * time.Second
	delayFault     = 3 * time.Second
)

// workdir is one Terraform working directory, the harness's workspace for
// the provider binary (acctest.NewBuiltWorkspace: the real CLI against the
// real binary, no `terraform init`, nothing of the developer's
// environment), with these tests' helpers.
type workdir struct {
	t   testing.TB
	dir string
	ws  *tfrun.Workspace
}

func newWorkdir(t testing.TB) *workdir {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("drives the Terraform CLI: set TF_ACC=1 (make test-reliability)")
	}
	ws := acctest.NewBuiltWorkspace(t)
	return &workdir{t: t, dir: ws.Dir, ws: ws}
}

// workspace runs commands in w with the variables extra added.
func (w *workdir) workspace(extra []string) *tfrun.Workspace {
	ws := *w.ws
	ws.Env = append(slices.Clone(ws.Env), extra...)
	return &ws
}

func (w *workdir) write(config string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(config), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// run runs the CLI; the error is nil on exit code 0 and an *exec.ExitError
// otherwise. The output is the combined stdout and stderr.
func (w *workdir) run(args ...string) (string, error) {
	return w.runEnv(nil, args...)
}

func (w *workdir) runEnv(extra []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if args[0] != "state" {
		args = append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)
	}
	var out bytes.Buffer
	cmd, err := w.workspace(extra).Start(ctx, &out, args...)
	if err != nil {
		return "", err
	}
	err = cmd.Wait()
	return out.String(), err
}

func (w *workdir) apply() (string, error) {
	return w.run("apply", "-auto-approve", "-input=false")
}

// background is `terraform apply` running while a test acts on it: signals
// it, kills its provider, holds its requests.
type background struct {
	cmd  *exec.Cmd
	out  *emulatortest.LockedBuffer
	done chan error // its exit, once
}

// startApply starts `terraform apply` in w.
func (w *workdir) startApply() *background {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	b := &background{out: &emulatortest.LockedBuffer{}, done: make(chan error, 1)}
	cmd, err := w.workspace(nil).Start(ctx, b.out, "apply", "-no-color", "-auto-approve", "-input=false")
	if err != nil {
		cancel()
		w.t.Fatal(err)
	}
	b.cmd = cmd
	go func() { b.done <- cmd.Wait(); cancel() }()
	return b
}

func (w *workdir) destroy() (string, error) {
	return w.run("destroy", "-auto-approve", "-input=false")
}

// plan runs plan -detailed-exitcode: changes reports exit code 2.
func (w *workdir) plan() (out string, changes bool, err error) {
	out, err = w.run("plan", "-input=false", "-detailed-exitcode")
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 2 {
		return out, true, nil
	}
	return out, false, err
}

// state is `terraform show -json` of the state, by resource address.
func (w *workdir) state() map[string]map[string]any {
	w.t.Helper()
	out, err := w.run("show", "-json")
	if err != nil {
		w.t.Fatalf("show -json: %v\n%s", err, out)
	}
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Deposed string         `json:"deposed_key"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		w.t.Fatalf("show -json: %v\n%s", err, out)
	}
	// A deposed object (create_before_destroy, the old one not yet
	// destroyed) shares its address: it is kept as "<address> deposed <key>".
	m := map[string]map[string]any{}
	for _, r := range doc.Values.RootModule.Resources {
		addr := r.Address
		if r.Deposed != "" {
			addr += " deposed " + r.Deposed
		}
		m[addr] = r.Values
	}
	return m
}

// errorSummaries are the "Error: ..." lines of a CLI run.
func errorSummaries(out string) string {
	var s []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimLeft(l, "│╷╵ ")
		if strings.HasPrefix(l, "Error: ") {
			s = append(s, strings.TrimPrefix(l, "Error: "))
		}
	}
	return strings.Join(s, "; ")
}
