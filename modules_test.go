package toolsearch

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go/parser"
	"go/token"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoInternalImportsAcrossModules: no Go file of a nested module (one
// with its own go.mod: the adapters, the gateway, the benchmarks) imports
// an internal package of the root module, which is no versioned API
// between separately versioned modules; and no example program of the
// root (examples/), which a user copies into a module of their own, does
// either.
func TestNoInternalImportsAcrossModules(t *testing.T) {
	internal := modulePath + "/internal/"
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || d.Name() == "node_modules" || (strings.HasPrefix(d.Name(), ".") && path != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || !outsideTheRoot(path) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			assert.False(t, strings.HasPrefix(p, internal), "%s imports %s, an internal package of the root module", path, p)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, checked, 50, "Go files of the nested modules and examples checked")
}

// outsideTheRoot reports whether the file at path (relative to the root)
// belongs to a nested module or to a root example program.
func outsideTheRoot(path string) bool {
	if strings.HasPrefix(path, "examples"+string(filepath.Separator)) {
		return true
	}
	for dir := filepath.Dir(path); dir != "."; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return true
		}
	}
	return false
}
