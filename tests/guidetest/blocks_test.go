package guidetest_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// block is one fenced block of a guide page: its language and text.
type block struct {
	lang, text string
}

// name is the first line's comment (`# main.tf`, `# Start the emulator`),
// which names a file or says what a shell block does.
func (b block) name() string {
	first, _, _ := strings.Cut(b.text, "\n")
	name, _ := strings.CutPrefix(first, "# ")
	return name
}

// guideBlocks returns the fenced blocks of the generated page
// docs/guides/<name>.md, in order.
func guideBlocks(t *testing.T, name string) []block {
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
	var blocks []block
	var cur *block
	for line := range strings.Lines(string(b)) {
		line = strings.TrimRight(line, "\n")
		switch {
		case cur == nil && strings.HasPrefix(line, "```") && len(line) > 3:
			cur = &block{lang: line[3:]}
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s: an unterminated block", page)
	}
	return blocks
}

// only returns the one block of blocks in lang whose name is name (any
// name when name is empty), failing t unless there is exactly one.
func only(t *testing.T, blocks []block, lang, name string) block {
	t.Helper()
	var found []block
	for _, b := range blocks {
		if b.lang == lang && (name == "" || b.name() == name) {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the guide has %d %s blocks named %q, want 1", len(found), lang, name)
	}
	return found[0]
}
