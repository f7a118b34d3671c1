package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/tfrun"
)

func (b *bench) providerBlock() string {
	return fmt.Sprintf(`
terraform {
  required_providers {
    cloud = { source = "cloudlabs/cloud" }
  }
}
provider "cloud" {
  region     = %q
  access_key = %q
  secret_key = %q
  endpoints = {
    identity = %q
    search   = %q
    models   = %q
  }
}
`, b.emu.Region(), b.emu.AccessKeyID(), b.emu.SecretAccessKey(), b.srv.URL, b.srv.URL, b.srv.URL)
}

func (b *bench) workspace(name string) (*tfrun.Workspace, error) {
	dir, err := os.MkdirTemp("", "bench-"+name+"-")
	if err != nil {
		return nil, err
	}
	env, err := tfrun.DevOverrides(dir, "cloudlabs/cloud", b.binDir)
	if err != nil {
		return nil, err
	}
	return &tfrun.Workspace{CLI: b.cli, Dir: dir, Env: env}, nil
}

// buildNoop builds ./noop into a temporary directory; bench runs from the
// repository's root (make bench).
func buildNoop(ctx context.Context) (string, error) {
	dir, err := os.MkdirTemp("", "bench-noop-bin-")
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(dir, "terraform-provider-noop"), "./cmd/bench/noop") //nolint:gosec // our own package into our own temporary directory
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the noop provider: %w\n%s", err, out)
	}
	return dir, nil
}
