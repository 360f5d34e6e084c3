// Package benchmarks measures toolsearch against peers on the same
// catalogs and queries, in one run:
//
//   - linear: a straightforward port of the same rules that scans every tool
//     and matches each term against each description with a regular
//     expression (one compiled per term and query);
//   - linear-prefilter: the same with a strings.Contains test before the
//     regular expression;
//   - eino: the tool-search middleware of github.com/cloudwego/eino
//     (adk/middlewares/dynamictool/toolsearch), driven through its public
//     API: its tool_search tool's InvokableRun, JSON in and JSON out;
//   - bleve: an in-memory github.com/blevesearch/bleve/v2 index (scorch,
//     BM25) over name and description, the full-text-engine reference.
//
// The eino adapter (tseino) is compared with eino's own tool-search
// middleware through the same ChatModelAgent API: MiddlewareAgent drives
// the hooks of either middleware the same way, Agent runs either in a real
// ChatModelAgent, and the benchmarks in middleware_test.go give the time
// per query and the quality of each middleware's search tool on the
// datasets of testdata/bench.
//
// It is a separate module so that the core module keeps its two
// dependencies. The benchmarks are in peers_test.go; BENCHMARKS.md at the
// repository root has the figures.
package benchmarks
