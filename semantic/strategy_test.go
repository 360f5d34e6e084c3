package semantic

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// testEmbedder is the hashEmbedder with what the strategy tests need: a
// text in alias is embedded as another text (a paraphrase the hash cannot
// see), batches are recorded, gate (when set) holds every Embed call of
// more than one text or of a text in hold until it is closed or the
// context ends, and fail makes Embed fail.
type testEmbedder struct {
	hashEmbedder
	alias map[string]string

	mu      sync.Mutex
	batches [][]string    // every call's texts
	gate    chan struct{} // nil: no wait
	hold    map[string]bool
	ignore  bool // a held call ignores its context
	fail    error
	calls   atomic.Int32
}

func newTestEmbedder() *testEmbedder {
	return &testEmbedder{hashEmbedder: hashEmbedder{dims: 64}, alias: map[string]string{}}
}

func (e *testEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	e.mu.Lock()
	e.batches = append(e.batches, slices.Clone(texts))
	gate, fail, ignore := e.gate, e.fail, e.ignore
	held := len(texts) > 1 || e.hold[texts[0]]
	e.mu.Unlock()
	if gate != nil && held {
		if ignore {
			<-gate
		} else {
			select {
			case <-gate:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	if fail != nil {
		return nil, fail
	}
	in := make([]string, len(texts))
	for i, t := range texts {
		in[i] = t
		if a, ok := e.alias[t]; ok {
			in[i] = a
		}
	}
	return e.hashEmbedder.Embed(ctx, in)
}

func (e *testEmbedder) set(f func(e *testEmbedder)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f(e)
}

// embeddedTexts returns the texts of every call so far, and forgets them.
func (e *testEmbedder) embeddedTexts() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, b := range e.batches {
		out = append(out, b...)
	}
	e.batches = nil
	return out
}

func semanticTools() []toolsearch.Tool {
	return []toolsearch.Tool{
		{Name: "Read", Description: "Reads a file from disk."}, // not deferred
		toolsearch.NewMCPTool("git", "git_stash", "Stash the changes in a dirty working directory away.", nil, nil),
		toolsearch.NewMCPTool("git", "git_commit", "Record changes to the repository.", nil, nil),
		toolsearch.NewMCPTool("git", "git_status", "Show the working tree status.", nil, nil),
		toolsearch.NewMCPTool("docker", "run_container", "Create and start a new container from an image.", nil, nil),
		toolsearch.NewMCPTool("memory", "add_observations", "Add new observations to existing entities in the knowledge graph.", nil, nil),
		toolsearch.NewMCPTool("github", "get_pull_request_status", "Get the combined status of all status checks for a pull request.", nil, nil),
		toolsearch.NewMCPTool("maps", "search_places", "Search for places near a location.", nil, nil),
	}
}

func toolNamed(t *testing.T, tools []toolsearch.Tool, name string) toolsearch.Tool {
	t.Helper()
	for _, tool := range tools {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s", name)
	return toolsearch.Tool{}
}

// fixture is a registry of semanticTools, a semantic strategy over a
// testEmbedder, and a Searcher with it.
type fixture struct {
	reg *toolsearch.Registry
	emb *testEmbedder
	st  *Strategy
	s   *toolsearch.Searcher
}

func newFixture(t *testing.T, emb *testEmbedder, opts *Options) *fixture {
	t.Helper()
	reg, err := toolsearch.NewRegistry(nil, semanticTools()...)
	require.NoError(t, err)
	st, err := New(emb, opts)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return &fixture{reg: reg, emb: emb, st: st, s: toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})}
}

// ready embeds every tool of the registry now.
func (f *fixture) ready(t *testing.T) {
	t.Helper()
	f.s.Prepare()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, f.st.Wait(ctx))
}

func names(res *toolsearch.Result) []string {
	out := []string{}
	for _, m := range res.Matches {
		out = append(out, m.Name)
	}
	return out
}

func search(t *testing.T, s *toolsearch.Searcher, q string) *toolsearch.Result {
	t.Helper()
	res, err := s.Search(q, 0)
	require.NoError(t, err, "query %q", q)
	return res
}

const paraphrase = "shelve my edits for a bit"

// A query with no word in common with a tool finds it by meaning, and the
// match says so.
func TestSemanticFindsParaphrase(t *testing.T) {
	emb := newTestEmbedder()
	tools := semanticTools()
	emb.alias[paraphrase] = ToolText(toolNamed(t, tools, "mcp__git__git_stash"))
	f := newFixture(t, emb, nil)
	f.ready(t)

	hybrid := toolsearch.NewSearcher(f.reg, &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy()})
	assert.NotContains(t, names(search(t, hybrid, paraphrase)), "mcp__git__git_stash", "the hybrid strategy alone misses it")

	res := search(t, f.s, paraphrase)
	require.NotEmpty(t, res.Matches)
	assert.Equal(t, "mcp__git__git_stash", res.Matches[0].Name)
	assert.Equal(t, toolsearch.RuleSemantic, res.Matches[0].Rules)
	assert.Empty(t, res.Notes)
	assert.Equal(t, toolsearch.FormRanked, res.Form)
	assert.LessOrEqual(t, len(res.Matches), 5, "max_results applies")

	// A tool both rankings find keeps its keyword rules.
	const request = "please stash the changes I made so that the working directory is clean"
	emb.alias[request] = ToolText(toolNamed(t, tools, "mcp__git__git_stash"))
	res = search(t, f.s, request)
	require.NotEmpty(t, res.Matches)
	assert.Equal(t, "mcp__git__git_stash", res.Matches[0].Name)
	assert.NotZero(t, res.Matches[0].Rules&toolsearch.RulePartExact)
	assert.NotZero(t, res.Matches[0].Rules&toolsearch.RuleSemantic)
}

// select:, exact names and MCP prefixes are answered as by every
// strategy; a required term filters the fused ranking.
func TestSemanticKeepsQueryForms(t *testing.T) {
	emb := newTestEmbedder()
	f := newFixture(t, emb, nil)
	f.ready(t)
	hybrid := toolsearch.NewSearcher(f.reg, &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy()})
	for _, q := range []string{"select:mcp__git__git_stash,Read,nope", "MCP__GIT__git_status", "mcp__git__", "mcp__docker", ""} {
		want, got := search(t, hybrid, q), search(t, f.s, q)
		assert.Equal(t, want.Form, got.Form, "query %q", q)
		assert.Equal(t, names(want), names(got), "query %q", q)
		assert.Equal(t, want.NotFound, got.NotFound, "query %q", q)
	}
	before := emb.calls.Load()
	search(t, f.s, "select:mcp__git__git_stash")
	search(t, f.s, "mcp__git__git_status")
	assert.Equal(t, before, emb.calls.Load(), "a name form embeds nothing")

	// The paraphrase's nearest tool is git_stash, but +container requires
	// the word: only run_container has it.
	emb.alias["+container "+paraphrase] = ToolText(toolNamed(t, semanticTools(), "mcp__git__git_stash"))
	res := search(t, f.s, "+container "+paraphrase)
	assert.Equal(t, []string{"mcp__docker__run_container"}, names(res))
}

// Until the tools' vectors are ready, queries are ranked by keywords and
// say so; then by both.
func TestSemanticWhileEmbedding(t *testing.T) {
	emb := newTestEmbedder()
	emb.alias[paraphrase] = ToolText(toolNamed(t, semanticTools(), "mcp__git__git_stash"))
	emb.gate = make(chan struct{})
	f := newFixture(t, emb, nil)
	f.s.Prepare()
	hybrid := toolsearch.NewSearcher(f.reg, &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy()})

	for _, q := range []string{"git status", paraphrase} {
		res := search(t, f.s, q)
		assert.Equal(t, names(search(t, hybrid, q)), names(res), "query %q is ranked by keywords", q)
		assert.Equal(t, []string{noteNoVectors}, res.Notes)
	}
	close(emb.gate)
	f.ready(t)
	res := search(t, f.s, paraphrase)
	require.NotEmpty(t, res.Matches, "notes %q", res.Notes)
	assert.Equal(t, "mcp__git__git_stash", res.Matches[0].Name)
	assert.Empty(t, res.Notes)

	// A new tool waits for its vector; the others are ranked by both.
	emb.set(func(e *testEmbedder) { e.gate, e.hold = make(chan struct{}), map[string]bool{} })
	extra := toolsearch.NewMCPTool("git", "git_log", "Show the commit logs.", nil, nil)
	emb.set(func(e *testEmbedder) { e.hold[ToolText(extra)] = true })
	require.NoError(t, f.reg.Register(extra))
	res = search(t, f.s, paraphrase)
	require.NotEmpty(t, res.Matches, "notes %q", res.Notes)
	assert.Equal(t, "mcp__git__git_stash", res.Matches[0].Name)
	assert.Equal(t, []string{notePartial(1, 8)}, res.Notes)
	close(emb.gate)
	f.ready(t)
	assert.Empty(t, search(t, f.s, paraphrase).Notes)
}

// A query whose embedding fails, times out or is cancelled is ranked by
// keywords, with a note, and never fails; after a failure the Embedder is
// left alone for a pause.
func TestSemanticEmbeddingDown(t *testing.T) {
	emb := newTestEmbedder()
	f := newFixture(t, emb, &Options{QueryTimeout: time.Second})
	f.ready(t)
	now := time.Unix(1_000_000, 0)
	var clock sync.Mutex
	f.st.now = func() time.Time { clock.Lock(); defer clock.Unlock(); return now }
	advance := func(d time.Duration) { clock.Lock(); now = now.Add(d); clock.Unlock() }
	hybrid := toolsearch.NewSearcher(f.reg, &toolsearch.SearchOptions{Strategy: toolsearch.HybridStrategy()})
	want := names(search(t, hybrid, "git status"))

	emb.set(func(e *testEmbedder) { e.fail = errors.New("503 Service Unavailable") })
	res := search(t, f.s, "git status")
	assert.Equal(t, want, names(res))
	assert.Equal(t, []string{noteFailed}, res.Notes)

	calls := emb.calls.Load()
	res = search(t, f.s, "git status")
	assert.Equal(t, want, names(res))
	assert.Equal(t, []string{notePaused}, res.Notes)
	assert.Equal(t, calls, emb.calls.Load(), "no call during the pause")

	advance(pauseMin)
	search(t, f.s, "git status")
	assert.Equal(t, calls+1, emb.calls.Load(), "tried again after the pause")
	advance(pauseMin)
	assert.Equal(t, []string{notePaused}, search(t, f.s, "git status").Notes, "the pause doubles while it keeps failing")
	advance(pauseMin)
	emb.set(func(e *testEmbedder) { e.fail = nil })
	res = search(t, f.s, "git status")
	assert.Empty(t, res.Notes, "back after the doubled pause")

	// An Embedder that ignores its context: the search returns at the
	// timeout all the same.
	release := make(chan struct{})
	emb.set(func(e *testEmbedder) { e.gate, e.hold, e.ignore = release, map[string]bool{"git status": true}, true })
	res = search(t, f.s, "git status")
	assert.Equal(t, want, names(res))
	assert.Equal(t, []string{noteTimeout(time.Second)}, res.Notes)
	close(release)
	advance(pauseMax)

	// The caller's own context: not the service's fault, no pause.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := f.s.SearchContext(ctx, "git status", 0)
	require.NoError(t, err)
	assert.Equal(t, want, names(res))
	assert.Equal(t, []string{noteCancelled}, res.Notes)
	assert.Empty(t, search(t, f.s, "git status").Notes, "no pause after a cancelled search")
}

// An unchanged tool is never embedded twice: across Replace,
// SetServerTools, a server that reconnects, a tool removed and added
// again; and texts are sent in batches of at most BatchSize.
func TestSemanticEmbedsOnce(t *testing.T) {
	emb := newTestEmbedder()
	f := newFixture(t, emb, &Options{BatchSize: 3})
	f.ready(t)
	tools := semanticTools()
	var want []string
	for _, tool := range tools[1:] {
		want = append(want, ToolText(tool))
	}
	emb.mu.Lock()
	for _, b := range emb.batches {
		assert.LessOrEqual(t, len(b), 3, "a batch of %d texts", len(b))
	}
	emb.mu.Unlock()
	assert.ElementsMatch(t, want, emb.embeddedTexts(), "every deferred tool once")

	steps := []struct {
		name string
		do   func() error
		want []string
	}{
		{"Replace unchanged", func() error { return f.reg.Replace(tools[1], tools[2]) }, nil},
		{"SetServerTools unchanged", func() error {
			_, err := f.reg.SetServerTools("git", tools[1:4])
			return err
		}, nil},
		{"reconnect", func() error {
			f.reg.SetServerStatus("git", toolsearch.ServerDisconnected)
			f.s.Prepare()
			f.reg.SetServerStatus("git", toolsearch.ServerConnected)
			return nil
		}, nil},
		{"remove and add", func() error {
			f.reg.Remove("mcp__maps__search_places")
			f.s.Prepare()
			return f.reg.Register(tools[7])
		}, nil},
		{"a changed description", func() error {
			changed := tools[2]
			changed.Description = "Commit the staged changes."
			return f.reg.Replace(changed)
		}, []string{"git git commit\nCommit the staged changes."}},
		{"a search hint", func() error {
			hinted := tools[3]
			hinted.SearchHint = "what changed"
			return f.reg.Replace(hinted)
		}, []string{"git git status\nShow the working tree status.\nwhat changed"}},
	}
	for _, step := range steps {
		require.NoError(t, step.do(), step.name)
		f.ready(t)
		assert.Equal(t, step.want, emb.embeddedTexts(), step.name)
		res := search(t, f.s, "git status")
		assert.Empty(t, res.Notes, "%s: every tool has its vector", step.name)
		assert.Equal(t, []string{"git status"}, emb.embeddedTexts(), "%s: the query", step.name)
	}
}

// Tools are embedded when they are registered or change, without a query.
func TestSemanticEmbedsOnChange(t *testing.T) {
	emb := newTestEmbedder()
	f := newFixture(t, emb, nil)
	require.Eventually(t, func() bool { return len(emb.embeddedTexts()) > 0 }, 10*time.Second, time.Millisecond,
		"making the Searcher starts embedding the registry's tools")
	f.ready(t)
	emb.embeddedTexts()
	extra := toolsearch.NewMCPTool("git", "git_log", "Show the commit logs.", nil, nil)
	require.NoError(t, f.reg.Register(extra))
	var got []string
	require.Eventually(t, func() bool { got = append(got, emb.embeddedTexts()...); return len(got) > 0 }, 10*time.Second, time.Millisecond)
	assert.Equal(t, []string{ToolText(extra)}, got)
	runtime.KeepAlive(f.s)
}

// With a Store, a restart embeds nothing again.
func TestSemanticStoreAcrossRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vectors")
	run := func() (*testEmbedder, *toolsearch.Result) {
		emb := newTestEmbedder()
		emb.alias[paraphrase] = ToolText(toolNamed(t, semanticTools(), "mcp__git__git_stash"))
		store, err := OpenFileStore(path, emb.Model(), emb.Dimensions(), nil)
		require.NoError(t, err)
		f := newFixture(t, emb, &Options{Store: store})
		f.ready(t)
		res := search(t, f.s, paraphrase)
		require.NoError(t, f.st.Close())
		return emb, res
	}
	emb, res := run()
	assert.Len(t, emb.embeddedTexts(), 8, "the first run embeds the 7 tools and the query")
	assert.Equal(t, "mcp__git__git_stash", res.Matches[0].Name)

	emb, res = run()
	assert.Equal(t, []string{paraphrase}, emb.embeddedTexts(), "after a restart only the query is embedded")
	assert.Equal(t, "mcp__git__git_stash", res.Matches[0].Name)
	assert.Empty(t, res.Notes)
}

// A vector the Embedder gets wrong is reported and leaves its tool ranked
// by keywords; a failed batch is reported, and tried again.
func TestSemanticBadVectors(t *testing.T) {
	emb := &nanEmbedder{testEmbedder: newTestEmbedder(), bad: "git git commit"}
	var mu sync.Mutex
	var errs []error
	reg, err := toolsearch.NewRegistry(nil, semanticTools()...)
	require.NoError(t, err)
	st, err := New(emb, &Options{OnError: func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }})
	require.NoError(t, err)
	defer st.Close()
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st})
	s.Prepare()
	require.NoError(t, st.Wait(context.Background()))
	mu.Lock()
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrInvalidVector)
	assert.Contains(t, errs[0].Error(), "git git commit")
	mu.Unlock()
	assert.Equal(t, []string{notePartial(1, 7)}, search(t, s, "git status").Notes)

	// A failing batch: Wait reports it; it is tried again later.
	emb2 := newTestEmbedder()
	emb2.fail = errors.New("connection refused")
	f := newFixture(t, emb2, nil)
	f.s.Prepare()
	err = f.st.Wait(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "connection refused")
	assert.Contains(t, err.Error(), "embedding 7 tool texts")
	emb2.set(func(e *testEmbedder) { e.fail = nil })
	f.ready(t) // the retry, after a second
	assert.Empty(t, search(t, f.s, "git status").Notes)
}

// nanEmbedder returns a NaN vector for the texts starting with bad.
type nanEmbedder struct {
	*testEmbedder
	bad string
}

func (e *nanEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out, err := e.testEmbedder.Embed(ctx, texts)
	for i, t := range texts {
		if strings.HasPrefix(t, e.bad) {
			out[i][0] = float32(math.NaN())
		}
	}
	return out, err
}

// Close stops a batch in progress and waits for it; an idle strategy
// holds no goroutine.
func TestSemanticClose(t *testing.T) {
	base := runtime.NumGoroutine()
	emb := newTestEmbedder()
	emb.gate = make(chan struct{}) // never opened: batches wait for their context
	f := newFixture(t, emb, nil)
	f.s.Prepare()
	assert.Equal(t, []string{noteNoVectors}, search(t, f.s, "git status").Notes)
	require.NoError(t, f.st.Close())
	require.NoError(t, f.st.Close(), "Close twice")
	assert.Equal(t, []string{noteNoVectors}, search(t, f.s, "git status").Notes, "searches work after Close")
	require.NoError(t, f.st.Wait(context.Background()), "nothing to wait for after Close")
	settles(t, base, "no goroutine is left after Close")

	emb2 := newTestEmbedder()
	f2 := newFixture(t, emb2, nil)
	f2.ready(t)
	settles(t, base, "an idle strategy holds no goroutine")
}

// settles waits until at most base goroutines run (polling on this
// goroutine: testify's Eventually runs its condition on one more), and
// fails with their stacks after 10 s.
func settles(t *testing.T, base int, what string) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for runtime.NumGoroutine() > base {
		select {
		case <-tick.C:
		case <-deadline:
			buf := make([]byte, 1<<16)
			t.Fatalf("%s: %d goroutines, %d before:\n%s", what, runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
	}
}

func TestNew(t *testing.T) {
	_, err := New(nil, nil)
	assert.ErrorContains(t, err, "Embedder is nil")
	_, err = New(&hashEmbedder{dims: 0}, nil)
	assert.ErrorContains(t, err, "dimension 0")
	for _, w := range []float64{1.5, math.NaN()} {
		_, err = New(&hashEmbedder{dims: 8}, &Options{Weight: w})
		assert.ErrorContains(t, err, "is over 1", "Weight %v", w)
	}
	_, err = New(&hashEmbedder{dims: 8}, &Options{Weight: 1})
	assert.NoError(t, err, "Weight 1: the embedding ranking alone")
	st, err := New(&hashEmbedder{dims: 8}, nil)
	require.NoError(t, err)
	assert.Equal(t, "semantic", st.Name())
	in := st.Input()
	assert.True(t, in.Eager)
	assert.Equal(t, toolsearch.HybridStrategy().Input().MaxTerms, in.MaxTerms)
	assert.Equal(t, defaultQueryTimeout, st.opts.QueryTimeout)
	assert.Equal(t, defaultBatchSize, st.opts.BatchSize)
	assert.Equal(t, defaultWeight, st.opts.Weight)
}

// TestNegativeOptionsMeanTheDefault sets each number and duration of
// Options, one at a time, to -1: New must resolve it to the same default
// as a zero field. A field added later is covered too.
func TestNegativeOptionsMeanTheDefault(t *testing.T) {
	def, err := New(&hashEmbedder{dims: 8}, nil)
	require.NoError(t, err)
	typ := reflect.TypeFor[Options]()
	numbers := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		var set func(reflect.Value)
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int64:
			set = func(v reflect.Value) { v.SetInt(-1) }
		case reflect.Float64:
			set = func(v reflect.Value) { v.SetFloat(-1) }
		default:
			continue
		}
		numbers++
		t.Run(f.Name, func(t *testing.T) {
			var o Options
			set(reflect.ValueOf(&o).Elem().Field(i))
			st, err := New(&hashEmbedder{dims: 8}, &o)
			require.NoError(t, err)
			assert.Equal(t, reflect.ValueOf(def.opts).Field(i).Interface(), reflect.ValueOf(st.opts).Field(i).Interface(),
				"Options.%s = -1 must mean its default", f.Name)
		})
	}
	require.Equal(t, 3, numbers, "the numeric fields of Options")
}

func TestToolText(t *testing.T) {
	assert.Equal(t, "a", ToolText(toolsearch.Tool{Name: "a"}))
	assert.Equal(t, "a\nDoes b.", ToolText(toolsearch.Tool{Name: "a", Description: " Does b.\n"}))
	assert.Equal(t, "a\nhint", ToolText(toolsearch.Tool{Name: "a", SearchHint: "hint"}))
	assert.Equal(t, "a\nDoes b.\nhint", ToolText(toolsearch.Tool{Name: "a", Description: "Does b.", SearchHint: "hint", InputSchema: []byte(`{}`)}))
	for name, words := range map[string]string{
		"mcp__github__listPullRequests":    "github list pull requests",
		"desktop-commander__start_process": "desktop commander start process",
		"getURLFor":                        "get url for",
		"math.factorial":                   "math factorial",
		"WebSearch":                        "web search",
	} {
		assert.Equal(t, words+"\nDoes b.", ToolText(toolsearch.Tool{Name: name, Description: "Does b."}), "the words of %s", name)
	}
}
