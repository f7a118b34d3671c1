package speccoverage_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the repository, from this package's directory.
const root = "../.."

// TestSpecCoverageNamesWhatExists: every row of SPEC_COVERAGE.md's tables
// names code and tests that exist. In the Code and Test columns each
// backquoted name is checked: a path (with a slash or ending in .go) is a
// file or directory under internal/ or the repository; a Go name (Name,
// pkg.Name, Type.Method) is declared in the last path named before it in
// the cell, or anywhere in the tree when none is; a name starting with
// Test, Fuzz or Benchmark is such a function. Words that are no Go names
// (wire members, attributes, error codes) are written without backquotes
// there. Every row names at least one test.
func TestSpecCoverageNamesWhatExists(t *testing.T) {
	f, err := os.Open(filepath.Join(root, "SPEC_COVERAGE.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tree := loadTree(t)
	rows, bad := 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		cells := tableCells(sc.Text())
		if cells == nil || cells[0] == "Spec row" || strings.Trim(cells[0], "-: ") == "" {
			continue
		}
		if len(cells) != 3 {
			bad++
			t.Errorf("SPEC_COVERAGE.md:%d: %d cells, want 3 (Spec row, Code, Test; write a | inside a cell as \\|)", line, len(cells))
			continue
		}
		rows++
		tests := 0
		for col, cell := range cells[1:] {
			scope, testFile := "", map[string]string{}
			for _, name := range backquoted(cell) {
				problem := ""
				switch {
				case isPath(name) || tree.isPackage(name, scope):
					if p, ok := tree.path(name, scope); ok {
						scope = p
					} else {
						problem = "no such file or directory"
					}
				case goName.MatchString(name):
					if col == 1 && testName.MatchString(name) {
						tests++
					}
					if file, ok := tree.declared(scope, name); ok {
						testFile[name] = file
					} else {
						problem = fmt.Sprintf("not declared in %s", orTree(scope))
					}
				default:
					problem = "neither a path nor a Go name: write it without backquotes"
				}
				if problem != "" {
					bad++
					t.Errorf("SPEC_COVERAGE.md:%d (%q): `%s`: %s", line, short(cells[0]), name, problem)
				}
			}
			// A test named with its cases in parentheses, `TestX` ("case
			// a", "case b"): each case is a string in the test's file.
			for _, m := range subtests.FindAllStringSubmatch(cell, -1) {
				file, ok := testFile[m[1]]
				if !ok {
					continue // reported above
				}
				for _, q := range quotedText.FindAllStringSubmatch(m[2], -1) {
					if !strings.Contains(tree.files[file], strconv.Quote(q[1])) {
						bad++
						t.Errorf("SPEC_COVERAGE.md:%d (%q): %s has no case %q (%s)", line, short(cells[0]), m[1], q[1], file)
					}
				}
			}
		}
		if tests == 0 {
			bad++
			t.Errorf("SPEC_COVERAGE.md:%d (%q): the Test column names no test", line, short(cells[0]))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows < 50 {
		t.Errorf("%d rows read: the table's form is not the one this test reads", rows)
	}
	t.Logf("%d rows, %d problems", rows, bad)
}

var (
	goName   = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$`)
	testName = regexp.MustCompile(`^(Test|Fuzz|Benchmark)\w*$`)
	quoted   = regexp.MustCompile("`([^`]+)`")
	// subtests is a test name followed by its cases in parentheses.
	subtests   = regexp.MustCompile("`((?:Test|Fuzz)\\w*)` \\(([^)]*)\\)")
	quotedText = regexp.MustCompile(`"([^"]+)"`)
)

func isPath(name string) bool {
	return strings.Contains(name, "/") || strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".md")
}

func orTree(scope string) string {
	if scope == "" {
		return "the tree"
	}
	return scope
}

func short(s string) string {
	if len(s) > 50 {
		return s[:50] + "..."
	}
	return s
}

// tableCells are the cells of a Markdown table row; nil for another line.
// A | escaped as \| is part of its cell.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || strings.HasSuffix(line, `\|`) {
		return nil
	}
	var parts []string
	var cell strings.Builder
	inner := line[1 : len(line)-1]
	for i := 0; i < len(inner); i++ {
		switch {
		case inner[i] == '\\' && i+1 < len(inner) && inner[i+1] == '|':
			cell.WriteByte('|')
			i++
		case inner[i] == '|':
			parts = append(parts, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(inner[i])
		}
	}
	return append(parts, strings.TrimSpace(cell.String()))
}

func backquoted(cell string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// tree is the repository's Go and Markdown files, by path relative to
// the root, and the top-level declarations of its Go files.
type tree struct {
	files map[string]string // path -> source
	dirs  map[string]bool
	// decls holds each Go file's top-level names (topLevel).
	decls map[string]map[string]bool
}

func loadTree(t *testing.T) *tree {
	tr := &tree{files: map[string]string{}, dirs: map[string]bool{}, decls: map[string]map[string]bool{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			tr.dirs[rel] = true
			return nil
		}
		if !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		tr.files[rel] = string(b)
		if strings.HasSuffix(p, ".go") {
			f, err := parser.ParseFile(fset, p, b, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			tr.decls[rel] = topLevel(f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// topLevel are a file's top-level declarations: funcs, types, vars and
// consts by name, methods by name and as Type.Method (never a struct's
// fields or a function's locals).
func topLevel(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				names[d.Name.Name] = true
				continue
			}
			// A method is named alone (authorize) or with its type.
			names[d.Name.Name] = true
			if recv := receiverType(d.Recv.List[0].Type); recv != "" {
				names[recv+"."+d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					names[spec.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
	return names
}

// receiverType is a method receiver's type name (T of *T, T[K]).
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// path resolves a name to a file or directory: under internal/ first, as
// the table's paths are, then from the root, then beside the path named
// before it in the cell (scope) or in one of its parents, so that
// "emulator/runtime/service.go" then "auth.go" names the runtime's
// auth.go. A name with * names the files it matches; the first is the
// scope that follows.
func (tr *tree) path(name, scope string) (string, bool) {
	name = strings.TrimSuffix(name, "/")
	candidates := []string{"internal/" + name, name}
	for d := scope; d != "" && d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
		if !strings.HasSuffix(d, ".go") {
			candidates = append(candidates, d+"/"+name)
		}
	}
	for _, p := range candidates {
		if _, ok := tr.files[p]; ok || tr.dirs[p] {
			return p, true
		}
		if strings.Contains(p, "*") {
			for f := range tr.files {
				if ok, _ := filepath.Match(p, f); ok {
					return filepath.ToSlash(filepath.Dir(f)), true
				}
			}
		}
	}
	return "", false
}

// isPackage reports whether a lower-case word names a package directory
// (reliability, emulator/search), which the table writes before its tests.
func (tr *tree) isPackage(name, scope string) bool {
	if strings.ToLower(name) != name {
		return false
	}
	p, ok := tr.path(name, scope)
	return ok && tr.dirs[p]
}

// declared reports the file that declares the Go name at the top level
// in scope (a file, a directory's own files, or the whole tree when ""),
// and whether one does. A qualified name pkg.Name is looked up in the
// package directory named pkg; Type.Method as the method.
func (tr *tree) declared(scope, name string) (string, bool) {
	if i := strings.LastIndex(name, "."); i >= 0 {
		if dir, ok := tr.packageDir(name[:i]); ok {
			scope, name = dir, name[i+1:]
		}
	}
	for _, p := range slices.Sorted(maps.Keys(tr.decls)) {
		if inScope(p, scope) && tr.decls[p][name] {
			return p, true
		}
	}
	return "", false
}

// packageDir is the directory of the package named name under internal/
// (rules, validators, customtypes), when there is exactly one.
func (tr *tree) packageDir(name string) (string, bool) {
	found := ""
	for d := range tr.dirs {
		if strings.HasPrefix(d, "internal/") && filepath.Base(d) == name {
			if found != "" {
				return "", false
			}
			found = d
		}
	}
	return found, found != ""
}

func inScope(p, scope string) bool {
	switch {
	case scope == "":
		return true
	case strings.HasSuffix(scope, ".go"):
		return p == scope
	default:
		return filepath.ToSlash(filepath.Dir(p)) == scope
	}
}
