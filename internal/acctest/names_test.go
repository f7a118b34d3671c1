package acctest

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestFileNames holds the tests to contributing/layout.md's naming
// rule: a test file is named for what it tests, never for its kind (an
// acceptance test is marked by its TestAcc name, which make selects).
func TestTestFileNames(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(d.Name(), "_acc_test.go") {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s: name the file for what it tests (drop _acc): the TestAcc names mark acceptance tests", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
