// Command toolsearch-mcp starts the MCP servers named in a Claude/Cursor-style
// configuration file and reports what deferring their tools saves.
//
// Usage:
//
//	toolsearch-mcp --config FILE [--query Q] [--max-results N] [--timeout D] [--json]
//
// The file holds {"mcpServers": {NAME: {"command": ..., "args": [...],
// "env": {...}}}}. Every server is started over stdio at once, each with its
// own timeout; a live progress line goes to stderr. The report gives, per
// server, the number of tools its tools/list returned, the tokens their
// definitions cost when all are loaded, the tokens they cost when deferred
// (their names in the system prompt; always-loaded tools in full), and the
// saving. Tokens are counted with the o200k_base BPE tokenizer, offline: an
// approximation of what a provider counts. A server that fails to start,
// hangs, or lists tools with bad schemas is reported in the table; the
// others still report. --query runs a ToolSearch query over all the tools.
//
// Exit status: 0 when every server reported, 1 when some failed, 2 on bad
// usage or an unreadable config.
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
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tiktoken-go/tokenizer"
	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/mcphub"
	tsmcpsdk "github.com/toolsearch/toolsearch/mcpsdk"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

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
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
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
		return 2
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
	cfg, bad, err := parseConfig(data)
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
	rep, closeAll := connectAll(ctx, reg, cfg, bad, *timeout, newProgress(stderr, cfg.names))
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

// connectAll starts every server at once and waits for all of them. The
// servers stay connected until closeAll is called.
func connectAll(ctx context.Context, reg *toolsearch.Registry, cfg config, bad map[string]string, timeout time.Duration, prog *progress) (rep report, closeAll func()) {
	var mu sync.Mutex
	problems := map[string][]string{} // of the last listing
	pending := map[string][]string{}  // of the listing in progress
	listed := map[string]int{}
	servers, err := mcphub.New(reg, &mcphub.Options{
		ListTimeout: timeout,
		OnError: func(server string, err error) {
			mu.Lock()
			pending[server] = append(pending[server], strings.ReplaceAll(err.Error(), "\n", "; "))
			mu.Unlock()
		},
		OnListed: func(server string, n int) {
			mu.Lock()
			listed[server] = n
			problems[server], pending[server] = pending[server], nil
			mu.Unlock()
		},
	})
	if err != nil {
		panic(err) // the options are valid: the timeout was checked
	}
	var sessions tsmcpsdk.Sessions
	client := mcp.NewClient(&mcp.Implementation{Name: "toolsearch-mcp", Version: "0"}, sessions.ClientOptions(nil))

	life, kill := context.WithCancel(ctx)
	rows := make([]serverReport, len(cfg.names))
	var attached []string
	var wg sync.WaitGroup
	for i, name := range cfg.names {
		rows[i].Name = name
		if why, ok := bad[name]; ok {
			rows[i].Status, rows[i].Error = "error", why
			prog.done(name, false)
			continue
		}
		sc := cfg.servers[name]
		wg.Go(func() {
			start := time.Now()
			err := connectOne(life, servers, &sessions, client, name, sc, timeout)
			rows[i].Millis = time.Since(start).Milliseconds()
			switch {
			case errors.Is(err, context.DeadlineExceeded):
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
			closing.Go(func() { _ = servers.Close(name) })
		}
		closing.Wait()
		kill()
	}
}

// stderrTail keeps the last bytes a server wrote to stderr, to explain a
// failure.
type stderrTail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2048 {
		t.buf = t.buf[len(t.buf)-2048:]
	}
	return len(p), nil
}

func (t *stderrTail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return printable(strings.TrimSpace(lines[len(lines)-1]))
}

// connectOne starts one server, attaches it, and lists its tools once more
// so that the report reflects tools registered right after initialization.
func connectOne(life context.Context, servers *mcphub.Hub, sessions *tsmcpsdk.Sessions, client *mcp.Client, name string, sc serverConfig, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(life, timeout)
	defer cancel()
	cmd := exec.CommandContext(life, sc.Command, sc.Args...)
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(mapsKeys(sc.Env)) {
		cmd.Env = append(cmd.Env, k+"="+sc.Env[k])
	}
	tail := &stderrTail{}
	cmd.Stderr = tail
	err := servers.Attach(ctx, sessions.Dial(name, client, &mcp.CommandTransport{Command: cmd, TerminateDuration: 500 * time.Millisecond}, nil))
	if err == nil {
		err = servers.Refresh(ctx, name)
		if err != nil {
			_ = servers.Close(name)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return context.DeadlineExceeded
		}
		if l := tail.lastLine(); l != "" {
			err = fmt.Errorf("%w (stderr: %s)", err, l)
		}
		return err
	}
	return nil
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
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
