package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Expiring notes removes the provider's own old note files and nothing
// else: not another file, not a link named as a note, not what it points
// to, not a fresh note.
func TestExpireNotesRemovesOnlyOldNotes(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	old := time.Now().Add(-2 * reuseMaxAge)
	note := strings.Repeat("0f", 32)
	write := func(path string, age time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(`{}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, age, age); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, note), old)
	write(filepath.Join(dir, note+".123.tmp"), old)
	write(filepath.Join(dir, "precious.txt"), old)
	write(filepath.Join(dir, strings.Repeat("1e", 32)), time.Now())
	target := filepath.Join(elsewhere, "target")
	write(target, old)
	link := filepath.Join(dir, strings.Repeat("2d", 32))
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	expireNotes(dir)
	for path, want := range map[string]bool{
		filepath.Join(dir, note): false, filepath.Join(dir, note+".123.tmp"): false,
		filepath.Join(dir, "precious.txt"): true, filepath.Join(dir, strings.Repeat("1e", 32)): true,
		link: true, target: true,
	} {
		if _, err := os.Lstat(path); (err == nil) != want {
			t.Errorf("%s: present = %v, want %v", filepath.Base(path), err == nil, want)
		}
	}
}
