package linkcheck_test

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// root is the repository, from this package's directory.
const root = "../.."

// skipDir: directories no file of ours lives in: build output (bin, dist,
// make bench's bench) and hidden directories (.git, a .terraform, the
// demo's), but for .github and .ci.
func skipDir(rel string) bool {
	base := filepath.Base(rel)
	if rel == "." || base == ".github" || base == ".ci" {
		return false
	}
	return strings.HasPrefix(base, ".") || rel == "bin" || rel == "dist" || rel == "bench" || base == "node_modules"
}

// walk calls f with each regular file's path relative to the repository
// whose name ends in one of suffixes.
func walk(t *testing.T, f func(rel string), suffixes ...string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDir(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		for _, s := range suffixes {
			if strings.HasSuffix(rel, s) {
				f(filepath.ToSlash(rel))
				return nil
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func exists(rel string) bool {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

var (
	// inlineLink is [text](target) or [text](target "title"), and an image's
	// ![alt](target); the target has no spaces.
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// refLink is a reference definition: [name]: target.
	refLink = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+.*)?$`)
	// inlineCode is a code span, whose text is no link.
	inlineCode = regexp.MustCompile("`[^`]*`")
	// htmlAnchor is an explicit anchor: <a id="x"> or <a name="x">.
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	// goFile is a Go file named without its directory: verdict.go.
	goFile = regexp.MustCompile(`(?:^|[^\w./*-])([A-Za-z]\w*\.go)\b`)
)

// markdownFile is what a Markdown file holds that links need: its links
// (with their line) and its anchors.
type markdownFile struct {
	links   []link
	spans   []link // code spans, which may name a path from the root
	anchors map[string]bool
}

type link struct {
	line   int
	target string
}

// parseMarkdown reads links and anchors outside fenced code blocks.
// Anchors are the headings' slugs as GitHub and the Terraform Registry make
// them (lower case, spaces to hyphens, punctuation other than - and _
// dropped, a repeated slug suffixed -1, -2) and the explicit <a id>s
// tfplugindocs writes for nested blocks.
func parseMarkdown(t *testing.T, rel string) markdownFile {
	t.Helper()
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	md := markdownFile{anchors: map[string]bool{}}
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	fence, line := "", 0
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(text, -1) {
			md.anchors[m[1]] = true
		}
		if m := heading.FindStringSubmatch(text); m != nil {
			s := slug(m[1])
			if n := seen[s]; n > 0 {
				md.anchors[s+"-"+itoa(n)] = true
			} else {
				md.anchors[s] = true
			}
			seen[s]++
		}
		for _, span := range inlineCode.FindAllString(text, -1) {
			md.spans = append(md.spans, link{line, strings.Trim(span, "`")})
		}
		text = inlineCode.ReplaceAllString(text, "")
		for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
			md.links = append(md.links, link{line, m[1]})
		}
		if m := refLink.FindStringSubmatch(text); m != nil {
			md.links = append(md.links, link{line, m[1]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return md
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

var mdMarkup = regexp.MustCompile("[`*]|<[^>]*>|\\[([^\\]]*)\\]\\([^)]*\\)")

func slug(h string) string {
	h = mdMarkup.ReplaceAllStringFunc(h, func(s string) string {
		if strings.HasPrefix(s, "[") {
			return s[1:strings.Index(s, "]")]
		}
		return ""
	})
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// published is where a file's links resolve from: a template under
// templates/ is rendered to the same path under docs/ without .tmpl, and
// its links are written for that place.
func published(rel string) string {
	if strings.HasPrefix(rel, "templates/") && strings.HasSuffix(rel, ".tmpl") {
		return "docs/" + strings.TrimSuffix(strings.TrimPrefix(rel, "templates/"), ".tmpl")
	}
	return rel
}

// TestMarkdownLinksResolve: every relative link of every Markdown file and
// docs template names a file or directory of the repository, and its
// #anchor, when it has one and names a Markdown file, one of that file's
// headings or explicit anchors. Links with a scheme (https:, mailto:) are
// not followed; a template's links are resolved from the page it becomes.
// A code span that names a path from the repository's root
// (`contributing/design.md`, `internal/poll`) or a Go file (`verdict.go`)
// names one that exists, as a Go comment's does (TestGoCommentPathsResolve);
// a module's README may name its own files, such as its tests, from its
// own directory.
func TestMarkdownLinksResolve(t *testing.T) {
	n := newNames(t)
	files := map[string]markdownFile{}
	var order []string
	walk(t, func(rel string) {
		files[rel] = parseMarkdown(t, rel)
		order = append(order, rel)
	}, ".md", ".md.tmpl")
	if len(order) == 0 {
		t.Fatal("no Markdown file found under " + root)
	}
	anchorsOf := func(rel string) (map[string]bool, bool) {
		if md, ok := files[rel]; ok {
			return md.anchors, true
		}
		// A page under docs/ generated from a template: its headings
		// are the template's and the schema's; the generated file is
		// read when it is there.
		if exists(rel) && strings.HasSuffix(rel, ".md") {
			return parseMarkdown(t, rel).anchors, true
		}
		return nil, false
	}
	checked := 0
	for _, rel := range order {
		for _, l := range files[rel].spans {
			for _, p := range n.in(l.target) {
				if !n.resolves(p) && !exists(path.Join(path.Dir(rel), p.name)) {
					t.Errorf("%s:%d: `%s` names %s, which does not exist", rel, l.line, l.target, p.name)
				}
			}
		}
		for _, l := range files[rel].links {
			target := l.target
			if strings.Contains(target, "{{") {
				continue // a template action, filled in by tfplugindocs
			}
			u, err := url.Parse(target)
			if err != nil {
				t.Errorf("%s:%d: link %q: %v", rel, l.line, target, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				continue
			}
			checked++
			dest := published(rel)
			if u.Path != "" {
				if strings.HasPrefix(u.Path, "/") {
					t.Errorf("%s:%d: link %q is absolute; write it relative to the file", rel, l.line, target)
					continue
				}
				dest = filepath.ToSlash(filepath.Join(filepath.Dir(published(rel)), u.Path))
				if strings.HasPrefix(dest, "../") || !exists(dest) {
					t.Errorf("%s:%d: link %q: %s does not exist", rel, l.line, target, dest)
					continue
				}
			}
			if u.Fragment == "" {
				continue
			}
			if u.Path == "" && dest != rel {
				dest = rel // a template's own anchors are its own headings
			}
			anchors, ok := anchorsOf(dest)
			if !ok {
				continue
			}
			if !anchors[u.Fragment] {
				t.Errorf("%s:%d: link %q: %s has no heading or anchor %q", rel, l.line, target, dest, u.Fragment)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the link pattern no longer matches the docs")
	}
}

// names finds the repository's files a text names, and says whether
// they exist.
type names struct {
	// fromRoot is a token that starts at one of the repository's
	// top-level directories or files: internal/service/search/verdict.go,
	// docs/guides/logging.md, contributing/design.md, GNUmakefile. It
	// must not follow a letter, digit, dot or slash (an import path, a URL
	// or a relative path is no path from the root).
	fromRoot *regexp.Regexp
	// goFiles holds the base name of every Go file of the repository.
	goFiles map[string]bool
}

func newNames(t *testing.T) *names {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs, files []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case skipDir(name):
		case e.IsDir():
			dirs = append(dirs, regexp.QuoteMeta(name))
		case strings.Contains(name, ".") && !strings.HasPrefix(name, ".") || name == "GNUmakefile" || name == "LICENSE":
			files = append(files, regexp.QuoteMeta(name))
		}
	}
	n := &names{
		fromRoot: regexp.MustCompile(`(?:^|[^\w./-])((?:` + strings.Join(dirs, "|") + `)/[\w.*/-]*[\w*]|(?:` + strings.Join(files, "|") + `)\b)`),
		goFiles:  map[string]bool{},
	}
	walk(t, func(rel string) { n.goFiles[filepath.Base(rel)] = true }, ".go")
	return n
}

type named struct {
	name string
	at   int  // its offset in the text
	bare bool // a Go file's name without its directory
}

// in returns the files text names: paths from the root, and Go files named
// without their directory. A token with * is a pattern and is left out.
func (n *names) in(text string) []named {
	var out []named
	for _, m := range n.fromRoot.FindAllStringSubmatchIndex(text, -1) {
		if p := text[m[2]:m[3]]; !strings.Contains(p, "*") {
			out = append(out, named{name: p, at: m[2]})
		}
	}
	for _, m := range goFile.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, named{name: text[m[2]:m[3]], at: m[2], bare: true})
	}
	return out
}

// resolves: a path from the root exists, or is dir.Name (a declaration of
// the package in dir); a Go file named without its directory is one of the
// repository's Go files (a comment or a table may name another package's).
func (n *names) resolves(f named) bool {
	if f.bare {
		return n.goFiles[f.name]
	}
	p := strings.TrimRight(f.name, ".")
	if exists(p) {
		return true
	}
	if i := strings.LastIndex(p, "/"); i >= 0 {
		if j := strings.Index(p[i:], "."); j > 0 {
			dir, rest := p[:i+j], p[i+j+1:]
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir))); err == nil && fi.IsDir() && rest != "" && unicode.IsLetter(rune(rest[0])) && !knownExt[strings.ToLower(rest)] {
				return true
			}
		}
	}
	return false
}

// knownExt: after a directory, .go or .md is a file that is missing, not a
// declaration.
var knownExt = map[string]bool{"go": true, "md": true, "tmpl": true, "txt": true, "json": true, "yml": true, "yaml": true, "tf": true, "sh": true, "hcl": true}

// TestGoCommentPathsResolve: every file a Go comment names exists: a path
// from the repository's root (a token starting at a top-level directory,
// such as contributing/design.md or internal/poll, or a top-level file such
// as BENCHMARKS.md), and a Go file named without its directory
// (verdict.go), which must be one of the repository's. A token ending in
// .Name after a package's directory (internal/poll.Observation) names a
// declaration of that package and is checked as the directory; a token with
// * is a pattern and is not checked.
func TestGoCommentPathsResolve(t *testing.T) {
	n := newNames(t)
	fset := token.NewFileSet()
	checked := 0
	walk(t, func(rel string) {
		if strings.Contains(rel, "/testdata/") {
			return
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, filepath.FromSlash(rel)), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Error(err)
			return
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				for _, p := range n.in(c.Text) {
					checked++
					if n.resolves(p) {
						continue
					}
					line := fset.Position(c.Pos()).Line + strings.Count(c.Text[:p.at], "\n")
					t.Errorf("%s:%d: the comment names %s, which does not exist", rel, line, p.name)
				}
			}
		}
	}, ".go")
	if checked == 0 {
		t.Fatal("no path found in any Go comment: the path pattern no longer matches")
	}
}

// trackerCite is a comment's citation of a tracker the repository does not
// hold: the word issue or issues, or review item, then a number. Upstream
// bugs named owner/repo#N (golang/go#75804) are public, and say when a
// workaround can go: they stay.
var trackerCite = regexp.MustCompile(`(?i)\b(issues? [0-9]+|review items? [0-9]+)`)

// TestGoCommentsCiteNoTracker: a comment says why in the code's own terms;
// an issue or review item number means nothing to a reader of the
// repository.
func TestGoCommentsCiteNoTracker(t *testing.T) {
	fset := token.NewFileSet()
	walk(t, func(rel string) {
		f, err := parser.ParseFile(fset, filepath.Join(root, filepath.FromSlash(rel)), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Error(err)
			return
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				for _, m := range trackerCite.FindAllStringIndex(c.Text, -1) {
					line := fset.Position(c.Pos()).Line + strings.Count(c.Text[:m[0]], "\n")
					t.Errorf("%s:%d: the comment cites %q: say why instead", rel, line, c.Text[m[0]:m[1]])
				}
			}
		}
	}, ".go")
}
