package benchmarks

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tiktoken-go/tokenizer"
	"github.com/toolsearch/toolsearch"
)

// BenchmarkListing measures the lists of deferred tools the model reads,
// as they are and within SearchOptions.MaxListingBytes, on the 51 tools of
// the four real npm MCP servers (testdata/npm-tool-names.txt, recorded from
// them) and on the 100,000-tool catalog: the bytes and o200k_base tokens of
// SystemPromptSection and of a Session's first announcement, and the time
// a new Searcher takes to give the section (its compact form is made then).
//
//	cd benchmarks && go test -run '^$' -bench Listing -benchtime 10x .
func BenchmarkListing(b *testing.B) {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	require.NoError(b, err)
	count := func(s string) float64 {
		n, err := codec.Count(s)
		require.NoError(b, err)
		return float64(n)
	}
	for _, c := range []struct {
		name  string
		tools func() []toolsearch.Tool
	}{
		{"npm-51", func() []toolsearch.Tool { return npmTools(b) }},
		{"n=100k", func() []toolsearch.Tool { return catalogOf(b, 100_000) }},
	} {
		reg, err := toolsearch.NewRegistry(nil, c.tools()...)
		require.NoError(b, err)
		for _, budget := range []int{0, 1 << 10, 16 << 10, 64 << 10} {
			b.Run(c.name+"/max="+strconv.Itoa(budget), func(b *testing.B) {
				opts := &toolsearch.SearchOptions{MaxListingBytes: budget}
				var section string
				for b.Loop() {
					section = toolsearch.NewSearcher(reg, opts).SystemPromptSection()
				}
				b.ReportAllocs()
				block := toolsearch.NewSession(reg, &toolsearch.SessionOptions{Search: *opts}).Announce().Text
				b.ReportMetric(float64(len(section)), "section-bytes")
				b.ReportMetric(count(section), "section-tokens")
				b.ReportMetric(float64(len(block)), "block-bytes")
				b.ReportMetric(count(block), "block-tokens")
			})
		}
	}
}

// npmTools returns the deferred tools named in testdata/npm-tool-names.txt.
func npmTools(tb testing.TB) []toolsearch.Tool {
	f, err := os.Open("testdata/npm-tool-names.txt")
	require.NoError(tb, err)
	defer f.Close()
	var tools []toolsearch.Tool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if n := sc.Text(); n != "" && !strings.HasPrefix(n, "#") {
			srv, _, _ := strings.Cut(strings.TrimPrefix(n, "mcp__"), "__")
			tools = append(tools, toolsearch.Tool{Name: n, Description: "A tool of " + srv + ".", Server: srv, ShouldDefer: true})
		}
	}
	require.NoError(tb, sc.Err())
	require.Len(tb, tools, 51)
	return tools
}

// catalogOf returns the first n tools of the benchmark catalog, all
// deferred, without schemas (the listings hold names only).
func catalogOf(tb testing.TB, n int) []toolsearch.Tool {
	cat := load(tb).Catalog(n)
	tools := make([]toolsearch.Tool, len(cat))
	for i, t := range cat {
		tools[i] = toolsearch.Tool{Name: t.Name, Description: t.Description, Server: t.Server, ShouldDefer: true}
	}
	return tools
}
