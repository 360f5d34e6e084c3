package toolsearch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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

// TestExportedNames keeps the public API small: it fails above 110
// exported identifiers (log/slog has 136 by the same count).
func TestExportedNames(t *testing.T) {
	_, files := packageFiles(t)
	names := exportedNames(files)
	t.Logf("%d exported identifiers: %s", len(names), strings.Join(names, " "))
	assert.LessOrEqual(t, len(names), 110, "the root package exports %d identifiers", len(names))
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

// TestNoStrategyTypeSwitch checks that no code of the package asks a
// Strategy value what it is (a type switch or type assertion on a value of
// the Strategy interface): what the pipeline needs to know, a Strategy
// says through its methods, so that a user's strategy is treated like a
// built-in one.
func TestNoStrategyTypeSwitch(t *testing.T) {
	fset, files := packageFiles(t)
	// Values of type Strategy: fields, parameters and variables declared
	// with it, and what returns it.
	strategyVars := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "Strategy" {
					for _, name := range n.Names {
						strategyVars[name.Name] = true
					}
				}
			case *ast.ValueSpec:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "Strategy" {
					for _, name := range n.Names {
						strategyVars[name.Name] = true
					}
				}
			}
			return true
		})
	}
	require.NotEmpty(t, strategyVars)
	isStrategy := func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Ident:
			return strategyVars[x.Name]
		case *ast.SelectorExpr:
			return strategyVars[x.Sel.Name]
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok {
				return strings.HasSuffix(id.Name, "Strategy")
			}
		}
		return false
	}
	for name, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ta, ok := n.(*ast.TypeAssertExpr); ok && isStrategy(ta.X) {
				t.Errorf("%s: a type assertion on a Strategy (%s)", name, fset.Position(ta.Pos()))
			}
			return true
		})
	}
	for name, f := range files {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		for _, unexported := range []string{"defaultStrategy", "bm25Strategy", "regexStrategy", "hybridStrategy"} {
			re := regexp.MustCompile(`\.\(\*?` + unexported + `\)`)
			assert.False(t, re.Match(src), "%s asserts a value to %s", name, unexported)
		}
		_ = f
	}
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
		}
	}
}
