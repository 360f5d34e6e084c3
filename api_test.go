package toolsearch

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests pin the shape of the package: how many names it exports, how
// long its files are, that no code asks a Strategy what it is, and that its
// documentation stands alone.

// packageFiles parses the package's non-test files.
func packageFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		require.NoError(t, err)
		files[p] = f
	}
	return fset, files
}

// exportedNames returns the package's exported identifiers: every exported
// top-level const, var, type and func, and every exported method of an
// exported type (interface methods and struct fields are not counted).
func exportedNames(files map[string]*ast.File) []string {
	var names []string
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names = append(names, d.Name.Name)
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
					names = append(names, id.Name+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, id := range s.Names {
							if id.IsExported() {
								names = append(names, id.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// TestExportedNames keeps the public API small: it fails above 141
// exported identifiers. It was 110 until the strategies' API took in what
// the built-in strategies had used privately (Corpus with its slots and
// Changes, Index.Update, Query and TopHits, NewCorpus, StrategyNames) and
// the text enums gained their marshalling (Form, and Rule and
// ServerStatus's MarshalText and UnmarshalText), with ModelText for the
// adapters: 134, log/slog's 136 by the same rule. The profiles brought
// seven more: Profile, a text enum like Format (its two values, String,
// MarshalText, UnmarshalText), and ModelTraits.
func TestExportedNames(t *testing.T) {
	_, files := packageFiles(t)
	names := exportedNames(files)
	t.Logf("%d exported identifiers: %s", len(names), strings.Join(names, " "))
	assert.LessOrEqual(t, len(names), 141, "the root package exports %d identifiers", len(names))
}

// TestFileLength keeps every file of the module a room of one concept: no
// non-test Go file over 600 lines (the nested modules, which have their own
// go.mod, are left to their own tests).
func TestFileLength(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == "." {
				return nil
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		assert.LessOrEqual(t, strings.Count(string(data), "\n"), 600, "%s is over 600 lines", path)
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, checked, 30, "the module's files were found")
}

// TestNoStrategyTypeSwitch checks that no code of the module asks a
// Strategy, an Index or a Corpus what it is: no type assertion and no type
// switch on a value whose static type is one of them, in any package of
// the module (its tests aside), whatever the asserted type. What the
// pipeline or a strategy needs to know, these types say through their
// methods, so that a user's strategy is treated like a built-in one and
// has the same means: the built-in strategies reuse their previous index
// through Index.Update, not by asserting it to their own type. Each
// package is type-checked (go/types), so the static type of every
// asserted expression is known.
func TestNoStrategyTypeSwitch(t *testing.T) {
	for _, v := range strategyAssertions(t, ".") {
		t.Error(v)
	}
}

// strategyAssertions returns the type assertions and type switches on a
// Strategy, Index or Corpus value in the non-test files of the module's
// packages under dir.
func strategyAssertions(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", `{{.ImportPath}} {{.Export}} {{.Module}} {{.Dir}} {{join .GoFiles ","}}`, "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	exports := map[string]string{}
	sources := map[string][]string{} // the module's packages: their files for this build
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		exports[f[0]] = f[1]
		if len(f) == 5 && f[2] == modulePath {
			for _, name := range strings.Split(f[4], ",") {
				sources[f[0]] = append(sources[f[0]], filepath.Join(f[3], name))
			}
		}
	}
	require.Contains(t, sources, modulePath+"/semantic", "the module's packages are listed")
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	watched := map[string]bool{"Strategy": true, "Index": true, "Corpus": true}
	isWatched := func(typ types.Type) bool {
		if p, ok := typ.(*types.Pointer); ok {
			typ = p.Elem()
		}
		n, ok := typ.(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == modulePath && watched[n.Obj().Name()]
	}
	var found []string
	for path, paths := range sources {
		var files []*ast.File
		for _, p := range paths {
			f, err := parser.ParseFile(fset, p, nil, 0)
			require.NoError(t, err)
			files = append(files, f)
		}
		if len(files) == 0 {
			continue
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(path, fset, files, info); err != nil {
			t.Fatalf("type-checking %s: %v", path, err)
		}
		report := func(x ast.Expr, at token.Pos, what string) {
			if tv, ok := info.Types[x]; ok && isWatched(tv.Type) {
				root, _ := filepath.Abs(dir)
				rel, _ := filepath.Rel(root, fset.Position(at).Filename)
				found = append(found, fmt.Sprintf("%s:%d: a %s on %s, of type %s", rel, fset.Position(at).Line, what,
					types.ExprString(x), types.TypeString(tv.Type, types.RelativeTo(nil))))
			}
		}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.TypeAssertExpr:
					if n.Type != nil { // x.(type) is reported with its switch
						report(n.X, n.Pos(), "type assertion")
					}
				case *ast.TypeSwitchStmt:
					var x ast.Expr
					switch a := n.Assign.(type) {
					case *ast.AssignStmt:
						x = a.Rhs[0].(*ast.TypeAssertExpr).X
					case *ast.ExprStmt:
						x = a.X.(*ast.TypeAssertExpr).X
					}
					report(x, n.Pos(), "type switch")
				}
				return true
			})
		}
	}
	slices.Sort(found)
	return found
}

// TestDocStandsAlone checks that the package documentation never sends the
// reader to a specification they cannot read, and names no type that does
// not exist.
func TestDocStandsAlone(t *testing.T) {
	_, files := packageFiles(t)
	for name, f := range files {
		for _, cg := range f.Comments {
			text := cg.Text()
			assert.NotRegexp(t, `(?i)\bspec\b|§|\.\./shared`, text, "%s: a comment cites a specification", name)
			assert.NotContains(t, text, "RuleSet", "%s: RuleSet is not a type", name)
			assert.NotRegexp(t, `\bClear\b`, text, "%s: Session has no Clear", name)
		}
	}
}
