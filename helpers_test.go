package toolsearch

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// golden compares got with testdata/golden/name, or rewrites the file when
// -update is given.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	checkGolden(t, filepath.Join("golden", name), got)
}

// loadCatalog registers the tools of a catalog file.
func loadCatalog(t testing.TB, path string) *Registry {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	tools, err := ParseCatalog(data)
	require.NoError(t, err)
	r, err := NewRegistry(nil, tools...)
	require.NoError(t, err)
	return r
}

// testSchema is a small valid input schema for test tools.
const testSchema = `{"type":"object","properties":{"q":{"type":"string"}}}`

// specPool is the pool the named cases are written against.
func specPool(t testing.TB) *Registry {
	t.Helper()
	r, err := NewRegistry(nil,
		Tool{Name: "Read", Description: "Read a file from disk."},
		Tool{Name: "WebSearch", Description: "Search the web and return result snippets.", SearchHint: "search the web for current information", ShouldDefer: true},
		Tool{Name: "WebFetch", Description: "Fetch a URL and return the page as markdown.", ShouldDefer: true},
		Tool{Name: "TaskList", Description: "List the tasks of this session.", ShouldDefer: true},
		Tool{Name: "NotebookEdit", Description: "Edit a cell of a Jupyter notebook.", ShouldDefer: true},
		Tool{Name: "CodeRunner", Description: "Compile and run c++ or Go snippets.", ShouldDefer: true},
		Tool{Name: "mcp__slack__send_message", Server: "slack", Description: "Send a message to a Slack channel."},
		Tool{Name: "mcp__slack__list_channels", Server: "slack", Description: "List the channels of a workspace."},
		Tool{Name: "mcp__github__create_issue", Server: "github", Description: "Create a new issue in a GitHub repository."},
		Tool{Name: "mcp__github__list_issues", Server: "github", Description: "List issues of a repository."},
		Tool{Name: "mcp__github__create_pull_request", Server: "github", Description: "Open a pull request."},
		Tool{Name: "mcp__jira__create_ticket", Server: "jira", Description: "Create a jira ticket.", AlwaysLoad: true},
	)
	require.NoError(t, err)
	return r
}

// deferredBlock returns the <available-deferred-tools> block of what s
// sees: the text of a full announcement.
func deferredBlock(s *Searcher) string { return s.promptTexts(s.reg.load()).block }

// deferredNames returns the sorted names of the deferred tools s sees.
func deferredNames(s *Searcher) []string { return slices.Clone(s.promptTexts(s.reg.load()).names) }

// registeredCount returns the number of available tools of r.
func registeredCount(r *Registry) int { return r.load().pool.Len() }

// allows reports whether scope sc allows tool t.
func allows(sc *Scope, t Tool) bool { return sc.filter()(&entry{tool: t, deferred: t.Deferred()}) }

// setServerTools calls r.SetServerTools and returns its whole-call error,
// or else the errors of the skipped tools joined (nil when none).
func setServerTools(r *Registry, server string, tools []Tool) error {
	skipped, err := r.SetServerTools(server, tools)
	if err != nil {
		return err
	}
	return errors.Join(skipped...)
}

// newRegistry returns an empty Registry with options opts.
func newRegistry(t testing.TB, opts *RegistryOptions) *Registry {
	t.Helper()
	r, err := NewRegistry(opts)
	require.NoError(t, err)
	return r
}

// allBlocks returns every block of res rendered in f: the tool_result
// content, then the blocks that follow it.
func allBlocks(res *Result, f Format) []ContentBlock {
	content, after := res.Content(f)
	return append(content, after...)
}
