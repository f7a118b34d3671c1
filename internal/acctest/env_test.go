package acctest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// envName is the name of a variable the provider could read: its own
// (CLOUD_*), HCP Terraform's workload identity (TFC_*), or the AWS SDK's.
var envName = regexp.MustCompile(`^(CLOUD|AWS|TFC)_[A-Z0-9_]+$`)

// TestProviderEnv checks ProviderEnv against the code that ships: every
// such variable name written in the provider's packages (not the
// emulator's, not tests) is in the list, and every name in the list is
// written there, so the list cannot fall behind a new variable.
func TestProviderEnv(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	found := map[string]string{}
	dirs := []string{filepath.Join(root, "internal"), filepath.Join(root, "main.go")}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() {
				switch filepath.ToSlash(rel) {
				case "internal/emulator", "internal/acctest", "tests/reliability", "tests/guidetest", "tests/policytest", "tests/release", "tests/speccoverage":
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil && envName.MatchString(s) {
						found[s] = rel
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, file := range found {
		if !slices.Contains(ProviderEnv, name) {
			t.Errorf("%s names %s, which ProviderEnv lacks: add it, so tests clear it", file, name)
		}
	}
	for _, name := range ProviderEnv {
		if _, ok := found[name]; !ok {
			t.Errorf("ProviderEnv lists %s, which no provider code names", name)
		}
	}
}
