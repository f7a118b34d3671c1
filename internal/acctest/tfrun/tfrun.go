// Package tfrun runs the Terraform CLI in a working directory, for the
// call-count test and the benchmark: one command at a time, timed, with
// the provider reached through a reattach configuration (in-process) or a
// dev_overrides CLI configuration (a built binary).
package tfrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// Source is the provider's source address.
const Source = "registry.terraform.io/cloudlabs/cloud"

// openTofuSource is the same address as OpenTofu resolves "cloudlabs/cloud".
const openTofuSource = "registry.opentofu.org/cloudlabs/cloud"

// Workspace is a working directory and the environment its commands run in.
type Workspace struct {
	CLI string
	Dir string
	Env []string
	// BaseEnv, when set, gives the environment each command starts from
	// (then Env), read when the command starts, as this process's is when
	// it is unset.
	BaseEnv func() []string
	// OnStart, when set, is called with each command's process once it has
	// started (to sample the provider's memory, for one).
	OnStart func(*os.Process)
}

// Write replaces main.tf.
func (w *Workspace) Write(config string) error {
	return os.WriteFile(filepath.Join(w.Dir, "main.tf"), []byte(config), 0o600)
}

// Run runs one Terraform command and returns its wall time; on failure the
// error carries the command's output.
func (w *Workspace) Run(ctx context.Context, args ...string) (time.Duration, error) {
	took, _, err := w.RunOutput(ctx, args...)
	return took, err
}

// RunOutput is Run that also returns the command's output (stdout and
// stderr).
func (w *Workspace) RunOutput(ctx context.Context, args ...string) (time.Duration, string, error) {
	var out bytes.Buffer
	cmd := w.command(ctx, args, &out, &out)
	start := time.Now()
	err := w.run(cmd)
	took := time.Since(start)
	if err != nil {
		return took, out.String(), fmt.Errorf("terraform %v: %w\n%s", args, err, out.String())
	}
	return took, out.String(), nil
}

// Output runs one Terraform command and returns what it wrote to stdout
// (such as show -json); on failure the error carries its stderr.
func (w *Workspace) Output(ctx context.Context, args ...string) ([]byte, error) {
	out, stderr, err := w.Streams(ctx, args...)
	if err != nil {
		return out, fmt.Errorf("terraform %v: %w\n%s%s", args, err, out, stderr)
	}
	return out, nil
}

// Streams runs one Terraform command and returns its stdout and stderr
// apart, and the error of its run as exec gives it (an *exec.ExitError
// for a non-zero exit).
func (w *Workspace) Streams(ctx context.Context, args ...string) (stdout, stderr []byte, err error) {
	var out, errOut bytes.Buffer
	err = w.run(w.command(ctx, args, &out, &errOut))
	return out.Bytes(), errOut.Bytes(), err
}

// command is one Terraform command in the workspace's directory and
// environment.
func (w *Workspace) command(ctx context.Context, args []string, stdout, stderr io.Writer) *exec.Cmd {
	cmd := exec.CommandContext(ctx, w.CLI, args...) //nolint:gosec // runs the Terraform CLI the caller chose, by design
	cmd.Dir = w.Dir
	base := os.Environ
	if w.BaseEnv != nil {
		base = w.BaseEnv
	}
	cmd.Env = append(base(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_INPUT=0")
	cmd.Env = append(cmd.Env, w.Env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd
}

// Start starts one Terraform command writing its output (stdout and
// stderr) to out, for a test that acts on the command while it runs
// (signals it, holds its requests); the caller waits for it.
func (w *Workspace) Start(ctx context.Context, out io.Writer, args ...string) (*exec.Cmd, error) {
	cmd := w.command(ctx, args, out, out)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if w.OnStart != nil {
		w.OnStart(cmd.Process)
	}
	return cmd, nil
}

// run starts cmd, hands its process to OnStart, and waits for it.
func (w *Workspace) run(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	if w.OnStart != nil {
		w.OnStart(cmd.Process)
	}
	return cmd.Wait()
}

// DevOverrides writes a CLI configuration that takes the provider source
// (such as cloudlabs/cloud) from binDir, and returns the environment that
// selects it: the one CLI configuration for a built provider. The source
// is overridden under both registry hosts, as Reattach serves it:
// Terraform and OpenTofu resolve "cloudlabs/cloud" on their own host, and
// each ignores the other's entry.
func DevOverrides(dir, source, binDir string) ([]string, error) {
	path := filepath.Join(dir, "dev.tfrc")
	cfg := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n    %q = %q\n  }\n  direct {}\n}\n",
		"registry.terraform.io/"+source, binDir, "registry.opentofu.org/"+source, binDir)
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	return []string{"TF_CLI_CONFIG_FILE=" + path}, nil
}

// Reattach serves the provider in this process and returns the environment
// that makes Terraform use it, and a function that stops it.
func Reattach(ctx context.Context, factory func() tfprotov6.ProviderServer) ([]string, func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	configCh := make(chan *plugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	errCh := make(chan error, 1)
	go func() {
		errCh <- tf6server.Serve(Source, factory, tf6server.WithDebug(ctx, configCh, closeCh), tf6server.WithoutLogStderrOverride())
	}()
	var cfg *plugin.ReattachConfig
	select {
	case cfg = <-configCh:
	case err := <-errCh:
		cancel()
		return nil, nil, fmt.Errorf("serving the provider: %w", err)
	case <-time.After(30 * time.Second):
		cancel()
		return nil, nil, fmt.Errorf("the provider did not start serving")
	}
	type addr struct{ Network, String string }
	type reattach struct {
		Protocol        string
		ProtocolVersion int
		Pid             int
		Test            bool
		Addr            addr
	}
	r := reattach{
		Protocol: string(cfg.Protocol), ProtocolVersion: cfg.ProtocolVersion, Pid: cfg.Pid, Test: true,
		Addr: addr{Network: cfg.Addr.Network(), String: cfg.Addr.String()},
	}
	// Under both hosts: Terraform and OpenTofu resolve "cloudlabs/cloud" on
	// their own registry hosts, and each ignores the other's entry.
	b, err := json.Marshal(map[string]reattach{Source: r, openTofuSource: r})
	if err != nil {
		cancel()
		return nil, nil, err
	}
	stop := func() {
		cancel()
		select {
		case <-closeCh:
		case <-time.After(10 * time.Second):
		}
	}
	return []string{"TF_REATTACH_PROVIDERS=" + string(b)}, stop, nil
}
