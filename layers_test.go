package toolsearch

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The layers of the module, bottom first. A layer may use the layers
// below it and itself, never one above: the package documentation's
// layering (README.md, Architecture) is this table. TestLayers checks it
// at two levels: between packages (the internal packages the root builds
// on import no package of a higher layer, and never the root), and, inside
// the root package, between files (no identifier of a file is declared in
// a file of a higher layer).

// packageLayers are the packages below the root, bottom first, and the
// root. Every other package of the module (commands, adapters' helpers,
// test helpers, eval, semantic) is above the root: no package listed here
// may import it.
var packageLayers = [][]string{
	{"internal/words"},
	{"internal/text", "internal/cow", "internal/querywork", "internal/vocab", "internal/jsonfast"},
	{"internal/schema"},
	{"."},
}

// rootLayers are the layers of the root package's files, bottom first.
var rootLayers = []struct {
	name  string
	files []string
}{
	{"tool model", []string{"errors.go", "enum.go", "profile.go", "tool.go", "tool_mcp.go", "tool_catalog.go", "tool_cc332.go"}},
	{"texts for the model", []string{"prompt.go", "prompt_cc332.go", "prompt_compact.go"}},
	{"entries", []string{"entry.go", "entry_schema.go"}},
	{"keyword index", []string{"index.go", "index_build.go", "index_scratch.go", "scoring.go"}},
	{"registry and snapshots", []string{"registry.go", "registry_build.go", "registry_schema.go",
		"snapshot.go", "snapshot_toolmap.go", "snapshot_names.go", "snapshot_prefix.go",
		"snapshot_suggest.go", "snapshot_listing.go", "snapshot_changes.go", "cache.go"}},
	{"strategies", []string{"strategy.go", "strategy_builtin.go", "strategy_share.go", "strategy_corpus.go",
		"strategy_best.go", "strategy_default.go", "strategy_default_prune.go", "strategy_cc332.go", "strategy_bm25.go", "strategy_hybrid.go", "strategy_hybrid_rank.go", "strategy_hybrid_lens.go", "strategy_hybrid_probe.go", "strategy_hybrid_one.go",
		"strategy_regex.go"}},
	{"results", []string{"result.go", "result_json.go"}},
	{"query pipeline", []string{"search.go", "search_prompt.go", "search_terms.go", "search_names.go", "search_cc332.go", "search_scope.go", "search_compact.go", "select.go"}},
	{"session", []string{"session.go", "session_announced.go", "session_auto.go", "session_resume.go", "session_cc332.go"}},
	{"call guard", []string{"guard.go"}},
}

// layerExceptions are the references from a root file to a file of a
// higher layer that the layering allows, each with its reason.
var layerExceptions = []struct{ from, to, why string }{
	{"registry.go", "strategy_share.go", "the Registry owns the indexes its strategies share, and wakes the eager ones when it publishes a version"},
}

// TestLayers checks the layering of packages and of the root's files.
func TestLayers(t *testing.T) {
	t.Run("packages", func(t *testing.T) {
		for _, v := range packageViolations(t, nil) {
			t.Error(v)
		}
	})
	t.Run("files", func(t *testing.T) {
		for _, v := range fileViolations(t, nil) {
			t.Error(v)
		}
	})
}

// TestLayersCatchUpwardUse checks that the checks can fail: an internal
// package importing the root or a package of its own layer, and a
// tool-model file using a session helper, are reported.
func TestLayersCatchUpwardUse(t *testing.T) {
	vs := strings.Join(packageViolations(t, map[string][]string{
		"internal/cow":    {modulePath},
		"internal/schema": {modulePath + "/internal/eventlog"},
		"internal/text":   {modulePath + "/internal/jsonfast"},
	}), "\n")
	assert.Contains(t, vs, "internal/cow imports "+modulePath+" (added)")
	assert.Contains(t, vs, "internal/schema imports "+modulePath+"/internal/eventlog (added)")
	assert.Contains(t, vs, "internal/text imports "+modulePath+"/internal/jsonfast (added)")

	rootLayers[0].files = append(rootLayers[0].files, "tool_up.go")
	defer func() { rootLayers[0].files = rootLayers[0].files[:len(rootLayers[0].files)-1] }()
	vs = strings.Join(fileViolations(t, map[string]string{"tool_up.go": "package toolsearch\n\nvar _ = diffSorted\n"}), "\n")
	assert.Contains(t, vs, "tool_up.go (tool model) uses diffSorted of session.go (session), a higher layer")
}

const modulePath = "github.com/toolsearch/toolsearch"

// packageViolations returns the imports of the packages of packageLayers
// that go to a package of the module not below them; extra are more
// imports to check, by package.
func packageViolations(t *testing.T, extra map[string][]string) []string {
	t.Helper()
	layerOf := map[string]int{}
	for i, pkgs := range packageLayers {
		for _, p := range pkgs {
			path := modulePath
			if p != "." {
				path += "/" + p
			}
			layerOf[path] = i
		}
	}
	var out []string
	for i, pkgs := range packageLayers {
		for _, p := range pkgs {
			for _, path := range extra[p] {
				if l, ok := layerOf[path]; !ok || l >= i {
					out = append(out, p+" imports "+path+" (added), which is not in a lower layer")
				}
			}
			files, err := filepath.Glob(filepath.Join(p, "*.go"))
			require.NoError(t, err)
			require.NotEmpty(t, files, "package %s has Go files", p)
			for _, f := range files {
				if p == "." && strings.HasSuffix(f, "_test.go") {
					continue // the root's tests use the helpers above it
				}
				af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
				require.NoError(t, err)
				for _, imp := range af.Imports {
					path, _ := strconv.Unquote(imp.Path.Value)
					if path != modulePath && !strings.HasPrefix(path, modulePath+"/") {
						continue
					}
					if l, ok := layerOf[path]; !ok || l >= i {
						out = append(out, p+" imports "+path+" ("+filepath.Base(f)+"), which is not in a lower layer")
					}
				}
			}
		}
	}
	return out
}

// fileViolations type-checks the root package, with the files of extra
// (name → source) added, and returns every use of an identifier declared
// in a file of a higher layer, by file pair, except the listed exceptions
// (a stale exception is reported too).
func fileViolations(t *testing.T, extra map[string]string) []string {
	t.Helper()
	layerOf := map[string]int{}
	for i, l := range rootLayers {
		for _, f := range l.files {
			layerOf[f] = i
		}
	}
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for name := range extra {
		paths = append(paths, name)
	}
	var files []*ast.File
	var out []string
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		var src any
		if s, ok := extra[p]; ok {
			src = s
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		require.NoError(t, err)
		files = append(files, f)
		name := filepath.Base(p)
		if _, ok := layerOf[name]; !ok && !(name == "doc.go" && len(f.Decls) == 0) {
			out = append(out, name+" is in no layer (rootLayers)")
		}
	}
	for f := range layerOf {
		if _, err := os.Stat(f); err != nil && extra[f] == "" {
			out = append(out, f+" is listed in rootLayers but does not exist")
		}
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: exportImporter(t, fset)}
	pkg, err := conf.Check(modulePath, fset, files, info)
	require.NoError(t, err)
	type pair struct{ from, to string }
	uses := map[pair][]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			continue // another package's, or local
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		lf, okf := layerOf[from]
		lt, okt := layerOf[to]
		if okf && okt && lt > lf && !slices.Contains(uses[pair{from, to}], obj.Name()) {
			uses[pair{from, to}] = append(uses[pair{from, to}], obj.Name())
		}
	}
	for _, ex := range layerExceptions {
		require.NotEmpty(t, ex.why, "the exception %s → %s has a reason", ex.from, ex.to)
		if _, ok := uses[pair{ex.from, ex.to}]; !ok {
			out = append(out, "the exception "+ex.from+" → "+ex.to+" is not needed any more")
		}
		delete(uses, pair{ex.from, ex.to})
	}
	for p, names := range uses {
		slices.Sort(names)
		out = append(out, p.from+" ("+rootLayers[layerOf[p.from]].name+") uses "+strings.Join(names, ", ")+
			" of "+p.to+" ("+rootLayers[layerOf[p.to]].name+"), a higher layer")
	}
	slices.Sort(out)
	return out
}

// exportImporter returns an importer reading the compiled export data of
// the packages the root package imports, as go list reports it.
func exportImporter(t *testing.T, fset *token.FileSet) types.Importer {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}", ".")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), " "); ok && file != "" {
			exports[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
}

// TestLayersDocumented keeps the README's Architecture table the layering
// these tests check: one row per layer, in order, naming its packages or
// files.
func TestLayersDocumented(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	text := string(readme)
	start := strings.Index(text, "\n## Architecture\n")
	require.GreaterOrEqual(t, start, 0, "README has an Architecture section")
	text = text[start+1:]
	if end := strings.Index(text[3:], "\n## "); end >= 0 {
		text = text[:end+3]
	}
	var want, got []string
	for _, pkgs := range packageLayers {
		if !slices.Contains(pkgs, ".") {
			want = append(want, strings.Join(pkgs, " "))
		}
	}
	for _, l := range rootLayers {
		want = append(want, l.name+": "+strings.Join(l.files, " "))
	}
	code := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(line, "|---") || strings.TrimSpace(cells[1]) == "layer" {
			continue
		}
		var items []string
		for _, m := range code.FindAllStringSubmatch(cells[2], -1) {
			items = append(items, m[1])
		}
		name := strings.TrimSpace(cells[1])
		if strings.HasPrefix(items[0], "internal/") {
			got = append(got, strings.Join(items, " "))
		} else {
			got = append(got, name+": "+strings.Join(items, " "))
		}
	}
	assert.Equal(t, want, got, "the README's Architecture table lists the layers of packageLayers and rootLayers, in order")
}
