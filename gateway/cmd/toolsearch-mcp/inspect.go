package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/tiktoken-go/tokenizer"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/gateway/internal/gateway"
)

// tokenNote labels every token figure.
const tokenNote = "tokens: o200k_base BPE count of the tool definitions as JSON, offline — an approximation of the provider's count"

// serverReport is one row of the report.
type serverReport struct {
	Name string `json:"name"`
	// Status is "ok", "error" or "timeout".
	Status string `json:"status"`
	// Tools is the number of tools the server's tools/list returned.
	Tools int `json:"tools"`
	// Skipped is the number of those tools that could not be registered
	// (bad name or schema); Problems says why.
	Skipped    int    `json:"skipped,omitempty"`
	TokensAll  int    `json:"tokens_all_loaded"`
	TokensDefr int    `json:"tokens_deferred"`
	Error      string `json:"error,omitempty"`
	Problems   string `json:"problems,omitempty"`
	Millis     int64  `json:"connect_ms"`
}

// report is the whole output.
type report struct {
	Servers []serverReport `json:"servers"`
	Total   struct {
		Tools      int     `json:"tools"`
		TokensAll  int     `json:"tokens_all_loaded"`
		TokensDefr int     `json:"tokens_deferred"`
		Saving     int     `json:"saving"`
		SavingPct  float64 `json:"saving_percent"`
		Overhead   int     `json:"tokens_toolsearch_overhead"`
	} `json:"total"`
	Tokenizer string             `json:"tokenizer"`
	Query     *toolsearch.Result `json:"query,omitempty"`
	// Tools are the registered tools, sorted by name, in the shape of a
	// catalog file: the report is a catalog for toolsearch search/eval
	// --catalog.
	Tools []catalogTool `json:"tools"`
}

// catalogTool is one tool of a catalog file (see toolsearch.ParseCatalog).
type catalogTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	SearchHint  string          `json:"search_hint,omitempty"`
	AlwaysLoad  bool            `json:"always_load,omitempty"`
	Server      string          `json:"server"`
	MCPToolName string          `json:"mcp_tool_name"`
}

// catalog lists reg's tools as catalog entries, sorted by name.
func catalog(reg *toolsearch.Registry) []catalogTool {
	out := []catalogTool{}
	for t := range reg.Tools() {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, catalogTool{Name: t.Name, Description: t.Description, InputSchema: schema,
			SearchHint: t.SearchHint, AlwaysLoad: t.AlwaysLoad, Server: t.Server, MCPToolName: t.MCPName})
	}
	slices.SortFunc(out, func(a, b catalogTool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// inspect is the report mode: toolsearch-mcp --config FILE ...
func inspect(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolsearch-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "Claude/Cursor-style MCP config file: {\"mcpServers\":{name:{command,args,env}}}")
	query := fs.String("query", "", "run this ToolSearch query over the servers' tools")
	maxResults := fs.Int("max-results", 0, "max_results for --query (0 = default 5)")
	timeout := fs.Duration("timeout", 30*time.Second, "per-server time limit to start and list tools")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: toolsearch-mcp --config FILE [--query Q] [--max-results N] [--timeout D] [--json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return helpCode(err)
	}
	if *cfgPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintln(stderr, "toolsearch-mcp: --timeout must be positive")
		return 2
	}
	data, err := readConfig(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "toolsearch-mcp: %s\n", printable(err.Error()))
		return 2
	}
	cfg, err := gateway.ParseConfig(data)
	if err != nil {
		fmt.Fprintf(stderr, "toolsearch-mcp: %s: %s\n", printable(*cfgPath), printable(err.Error()))
		return 2
	}
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		fmt.Fprintf(stderr, "toolsearch-mcp: loading the tokenizer: %v\n", err)
		return 2
	}

	reg := &toolsearch.Registry{}
	rep, closeAll := connectAll(ctx, reg, cfg, *timeout, newProgress(stderr, cfg.Names))
	defer closeAll()
	count := func(s string) int {
		n, err := codec.Count(s)
		if err != nil { // o200k encodes any UTF-8; count bytes rather than fail
			return len(s)
		}
		return n
	}
	searcher := toolsearch.NewSearcher(reg, nil)
	tally(&rep, reg, searcher, count)
	rep.Tokenizer = "o200k_base (approximation)"
	rep.Tools = catalog(reg)
	if *query != "" {
		res, err := searcher.Search(*query, *maxResults)
		if err != nil {
			fmt.Fprintf(stderr, "toolsearch-mcp: --query: %s\n", printable(err.Error()))
			return 2
		}
		rep.Query = res
	}
	if *asJSON {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "toolsearch-mcp: %s\n", printable(err.Error()))
			return 2
		}
		stdout.Write(jsonPrintable(buf.Bytes()))
	} else {
		printTable(stdout, &rep)
	}
	for _, s := range rep.Servers {
		if s.Status != "ok" {
			return 1
		}
	}
	return 0
}

// connectAll starts every enabled server at once and waits for all of
// them. The servers stay connected until closeAll is called.
func connectAll(ctx context.Context, reg *toolsearch.Registry, cfg *gateway.Config, timeout time.Duration, prog *progress) (rep report, closeAll func()) {
	var mu sync.Mutex
	problems := map[string][]string{} // of the last listing
	pending := map[string][]string{}  // of the listing in progress
	listed := map[string]int{}
	pool := gateway.NewPool(reg, gateway.PoolHooks{
		Error: func(server string, err error) {
			mu.Lock()
			pending[server] = append(pending[server], strings.ReplaceAll(err.Error(), "\n", "; "))
			mu.Unlock()
		},
		Listed: func(server string, n int) {
			mu.Lock()
			listed[server] = n
			problems[server], pending[server] = pending[server], nil
			mu.Unlock()
		},
		Status: func(string, toolsearch.ServerStatus) {},
	}, timeout, 0, true)

	life, kill := context.WithCancel(ctx)
	rows := make([]serverReport, len(cfg.Names))
	var attached []string
	var wg sync.WaitGroup
	for i, name := range cfg.Names {
		rows[i].Name = name
		sc := cfg.Servers[name]
		if why, ok := cfg.Bad[name]; ok {
			rows[i].Status, rows[i].Error = "error", why
			prog.done(name, false)
			continue
		}
		if sc.Disabled {
			rows[i].Status = "disabled"
			prog.done(name, true)
			continue
		}
		wg.Go(func() {
			start := time.Now()
			err := gateway.Connect(life, pool, name, sc, timeout)
			if err == nil { // tools registered right after initialization
				if err = pool.Refresh(life, name); err != nil {
					_ = pool.Close(name)
				}
			}
			rows[i].Millis = time.Since(start).Milliseconds()
			switch {
			case errors.Is(err, gateway.ErrStartTimeout):
				rows[i].Status, rows[i].Error = "timeout", fmt.Sprintf("no tool list within %s", timeout)
			case err != nil:
				rows[i].Status, rows[i].Error = "error", err.Error()
			default:
				rows[i].Status = "ok"
				mu.Lock()
				attached = append(attached, name)
				mu.Unlock()
			}
			prog.done(name, err == nil)
		})
	}
	wg.Wait()
	prog.finish()

	mu.Lock()
	for i := range rows {
		rows[i].Tools = listed[rows[i].Name]
		if p := problems[rows[i].Name]; len(p) > 0 {
			rows[i].Problems = strings.Join(p, "; ")
		}
	}
	open := slices.Clone(attached)
	mu.Unlock()
	return report{Servers: rows}, func() {
		var closing sync.WaitGroup
		for _, name := range open {
			closing.Go(func() { _ = pool.Close(name) })
		}
		closing.Wait()
		kill()
	}
}

// definitionJSON is a tool as a provider receives it.
func definitionJSON(t toolsearch.Tool) string {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	b, err := json.Marshal(toolsearch.ToolDefinition{Name: t.Name, Description: t.Description, InputSchema: schema})
	if err != nil { // registered schemas are valid JSON
		return t.Name + t.Description + string(schema)
	}
	return string(b)
}

// tally fills in the token figures from the registered tools.
func tally(rep *report, reg *toolsearch.Registry, s *toolsearch.Searcher, count func(string) int) {
	type acc struct {
		all, loaded int
		deferred    []string
	}
	per := map[string]*acc{}
	for _, r := range rep.Servers {
		per[r.Name] = &acc{}
	}
	var allTotal, loadedTotal int
	for t := range reg.Tools() {
		a := per[t.Server]
		if a == nil {
			continue
		}
		def := count(definitionJSON(t))
		a.all += def
		allTotal += def
		if t.Deferred() {
			a.deferred = append(a.deferred, t.Name)
		} else {
			a.loaded += def
			loadedTotal += def
		}
	}
	registered := map[string]int{}
	for t := range reg.Tools() {
		registered[t.Server]++
	}
	for i := range rep.Servers {
		r := &rep.Servers[i]
		a := per[r.Name]
		r.TokensAll = a.all
		r.TokensDefr = a.loaded
		if len(a.deferred) > 0 {
			r.TokensDefr += count(strings.Join(a.deferred, ", "))
		}
		if r.Status == "ok" {
			r.Skipped = r.Tools - registered[r.Name]
		}
		rep.Total.Tools += r.Tools
	}
	rep.Total.TokensAll = allTotal
	// With deferral the model sees the always-loaded tools, the ToolSearch
	// tool and the system-prompt section naming the deferred tools.
	rep.Total.TokensDefr = loadedTotal
	if section := s.SystemPromptSection(); section != "" {
		rep.Total.TokensDefr += count(definitionJSON(toolsearch.Tool{Name: toolsearch.ToolSearchName,
			Description: s.ToolDefinition().Description, InputSchema: s.ToolDefinition().InputSchema})) + count(section)
	}
	perServer := 0
	for _, r := range rep.Servers {
		perServer += r.TokensDefr
	}
	rep.Total.Overhead = rep.Total.TokensDefr - perServer
	rep.Total.Saving = rep.Total.TokensAll - rep.Total.TokensDefr
	if rep.Total.TokensAll > 0 {
		rep.Total.SavingPct = float64(rep.Total.Saving) * 100 / float64(rep.Total.TokensAll)
	}
}

func printTable(w io.Writer, rep *report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "SERVER\tSTATUS\tTOOLS\tTOKENS ALL LOADED\tTOKENS DEFERRED\tSAVING\t")
	for _, r := range rep.Servers {
		if r.Status != "ok" {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t\n", printable(r.Name), r.Status)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t\n", printable(r.Name), r.Status, r.Tools, r.TokensAll, r.TokensDefr, r.TokensAll-r.TokensDefr)
	}
	t := rep.Total
	fmt.Fprintf(tw, "TOTAL\t\t%d\t%d\t%d\t%d (%.1f%%)\t\n", t.Tools, t.TokensAll, t.TokensDefr, t.Saving, t.SavingPct)
	tw.Flush()
	fmt.Fprintf(w, "\nTOTAL TOKENS DEFERRED includes %d tokens for the ToolSearch tool and the prompt header.\n", t.Overhead)
	fmt.Fprintln(w, tokenNote+".")
	for _, r := range rep.Servers {
		if r.Error != "" {
			fmt.Fprintf(w, "%s: %s: %s\n", printable(r.Name), r.Status, printable(r.Error))
		}
		if r.Skipped > 0 || r.Problems != "" {
			fmt.Fprintf(w, "%s: %d of %d tools skipped: %s\n", printable(r.Name), r.Skipped, r.Tools, printable(r.Problems))
		}
	}
	if len(rep.Tools) > 0 {
		fmt.Fprintln(w, "\nTools (--json gives their definitions, as a catalog file):")
		byServer := map[string][]string{}
		for _, t := range rep.Tools {
			byServer[t.Server] = append(byServer[t.Server], t.MCPToolName)
		}
		for _, server := range sortedKeys(byServer) {
			fmt.Fprintf(w, "  %s: %s\n", server, strings.Join(byServer[server], ", "))
		}
	}
	if rep.Query != nil {
		q := rep.Query
		fmt.Fprintf(w, "\nToolSearch %q: %d match(es) of %d deferred tools\n", q.Query, len(q.Matches), q.TotalDeferredTools)
		for _, m := range q.Matches {
			desc, _, _ := strings.Cut(m.Description, "\n")
			if r := []rune(desc); len(r) > 100 {
				desc = string(r[:100]) + "…"
			}
			fmt.Fprintf(w, "  %s — %s\n", m.Name, printable(desc))
		}
		if len(q.Matches) == 0 {
			content, _ := q.Content(toolsearch.FormatToolReference) // the no-match text
			fmt.Fprintf(w, "  %s\n", printable(content[0].Text))
		}
	}
}

// progress is the live progress line on stderr: redrawn in place on a
// terminal, one line per finished server otherwise.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	names []string
	state map[string]string
	n     int
	start time.Time
}

func newProgress(w io.Writer, names []string) *progress {
	p := &progress{w: w, names: names, state: map[string]string{}, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	for _, n := range names {
		p.state[n] = "…"
	}
	p.mu.Lock()
	p.draw()
	p.mu.Unlock()
	return p
}

func (p *progress) done(name string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.state[name] = "✗"
	if ok {
		p.state[name] = "✓"
	}
	if p.tty {
		p.draw()
		return
	}
	fmt.Fprintf(p.w, "[%d/%d] %s %s (%.1fs)\n", p.n, len(p.names), printable(name), p.state[name], time.Since(p.start).Seconds())
}

// draw redraws the line; p.mu must be held.
func (p *progress) draw() {
	if !p.tty {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\r\033[Kstarting MCP servers [%d/%d]", p.n, len(p.names))
	for _, n := range p.names {
		b.WriteString("  " + printable(n) + " " + p.state[n])
	}
	io.WriteString(p.w, b.String())
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		io.WriteString(p.w, "\n")
	}
}
