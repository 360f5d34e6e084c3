// Command toolsearch runs ToolSearch queries over a tool catalog.
//
//	toolsearch search [--catalog FILE] [--max N] [--strategy NAME] [--profile NAME] [--format text|json|anthropic|functions] QUERY...
//	toolsearch prompt [--catalog FILE]
//	toolsearch batch  --catalog FILE --queries FILE [--strategy NAME] [--profile NAME] [--pending A,B] [--max-hint-bytes N] [--texts] [--max-results-cap N]
//	toolsearch eval   --dataset FILE... [--catalog FILE] [--strategy NAME|all] [--vectors FILE [--semantic-weight W]] [--split even|odd] [--json|--markdown [--metrics LIST]]
//	toolsearch embed  --base-url URL --model M --dataset FILE... [--catalog FILE] [--dimensions N] [--batch N] [--reuse FILE...] --out FILE
//
// Without --catalog, search and prompt use an embedded demo catalog of a few
// hundred real MCP tools and common agent tools. search --format json,
// anthropic or functions prints what the model would receive: the inline
// JSON, the Anthropic user message answering the ToolSearch call (with the
// tool_use id toolu_01: the tool_result, then the texts that follow it) or
// the <functions> block.
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolsearch/toolsearch"
	"github.com/toolsearch/toolsearch/internal/demo"
	"github.com/toolsearch/toolsearch/internal/openfile"
	"github.com/toolsearch/toolsearch/internal/termsafe"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

var usageText = `usage:
  toolsearch search [--catalog FILE] [--max N] [--strategy NAME] [--profile NAME] [--format text|json|anthropic|functions] QUERY...
  toolsearch prompt [--catalog FILE]
  toolsearch batch  --catalog FILE --queries FILE [--strategy NAME] [--profile NAME] [--pending A,B] [--max-hint-bytes N] [--texts] [--max-results-cap N]
  toolsearch eval   --dataset FILE [--dataset FILE...] [--catalog FILE] [--strategy NAME|all] [--vectors FILE [--semantic-weight W]] [--split even|odd] [--json|--markdown [--metrics r1,r5,mrr,ndcg]]
  toolsearch embed  --base-url URL --model M --dataset FILE [--dataset FILE...] [--catalog FILE] [--dimensions N] [--batch N] [--reuse FILE...] --out FILE

Without --catalog, search and prompt use the embedded demo catalog. A file
given as "-" is read from standard input; no input over --max-input-bytes
(default 256 MiB) is read.
--format anthropic prints the user message that answers a ToolSearch call
with id toolu_01: the tool_result, then the text blocks that follow it.
batch and eval send every query through the ToolSearch call a model makes.
Strategies: ` + strings.Join(strategyNames, ", ") + ` (default: Claude Code's
keyword scoring); eval also takes semantic, with --vectors FILE.
embed writes FILE: the vectors of the texts the semantic strategy embeds
for the datasets' tools and queries, from an OpenAI-compatible embeddings
endpoint (the API key, if needed, in OPENAI_API_KEY); eval then needs no
network.
`

// The library's defaults for max_results and its cap, which search and
// batch use and report.
const (
	defaultMaxResults    = 5
	defaultMaxResultsCap = 20
)

// strategyNames are the built-in strategies, in the order they are
// documented; "--strategy all" runs them all.
var strategyNames = toolsearch.StrategyNames()

// strategyHelp is the help of a --strategy flag.
var strategyHelp = "ranking strategy: " + strings.Join(strategyNames, ", ") + " (default: the profile's)"

// run executes the command line args and returns the exit code. What it
// prints, on both outputs, has its control characters escaped (newline
// and tab aside): the texts of a catalog, a dataset or an embedding
// server's error cannot drive the terminal.
func run(args []string, stdout, stderr io.Writer) int {
	out, errw := termsafe.Writer(stdout), termsafe.Writer(stderr)
	defer errw.Flush()
	defer out.Flush()
	return runCommand(args, out, errw)
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return 2
	}
	var err error
	switch args[0] {
	case "search":
		err = cmdSearch(args[1:], stdout, stderr)
	case "prompt":
		err = cmdPrompt(args[1:], stdout, stderr)
	case "batch":
		err = cmdBatch(args[1:], stdout, stderr)
	case "eval":
		err = cmdEval(args[1:], stdout, stderr)
	case "embed":
		err = cmdEmbed(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usageText)
		return 0
	default:
		fmt.Fprintf(stderr, "toolsearch: unknown command %q\n%s", args[0], usageText)
		return 2
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "toolsearch %s: %v\n%s", args[0], err, usageText)
		return 2
	}
	fmt.Fprintf(stderr, "toolsearch %s: %v\n", args[0], err)
	return 1
}

type usageError struct{ error }

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return nil
}

// defaultMaxInput is the largest catalog, queries or dataset read, in
// bytes, unless --max-input-bytes says otherwise: a path such as /dev/zero
// or a runaway pipe is refused instead of filling the memory.
const defaultMaxInput = 256 << 20

// inputLimit adds the --max-input-bytes flag to fs.
func inputLimit(fs *flag.FlagSet) *int64 {
	return fs.Int64("max-input-bytes", defaultMaxInput, "largest catalog, queries or dataset `size` read, in bytes")
}

// readInput reads the file at path ("-": standard input), refusing one
// longer than limit bytes without reading more than that.
func readInput(path string, limit int64) ([]byte, error) {
	r := io.Reader(os.Stdin)
	var buf bytes.Buffer
	if path != "-" {
		f, info, err := openfile.Open(path) // a FIFO or device cannot block the open
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
		if info.Mode().IsRegular() && info.Size() <= limit {
			// Read a large catalog into one buffer, not a growing one;
			// bytes.Buffer reads in steps of at least 512 bytes.
			buf.Grow(int(info.Size()) + 512)
		}
	}
	_, err := buf.ReadFrom(io.LimitReader(r, max(limit, 0)+1))
	data := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes, the limit (raise it with --max-input-bytes)", path, limit)
	}
	return data, nil
}

// loadRegistry registers the tools of the catalog file path (at most limit
// bytes), or of the demo catalog when path is empty.
func loadRegistry(path string, limit int64) (*toolsearch.Registry, error) {
	return loadRegistryWith(path, limit, nil)
}

// loadRegistryWith is loadRegistry with registry options.
func loadRegistryWith(path string, limit int64, opts *toolsearch.RegistryOptions) (*toolsearch.Registry, error) {
	data, name := demo.Catalog, "demo catalog"
	if path != "" {
		var err error
		if data, err = readInput(path, limit); err != nil {
			return nil, err
		}
		name = path
	}
	tools, err := toolsearch.ParseCatalog(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	reg, err := toolsearch.NewRegistry(opts, tools...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return reg, nil
}

func cmdSearch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search", stderr)
	catalog := fs.String("catalog", "", "catalog `file` (default: the embedded demo catalog)")
	maxN := fs.Int("max", 0, "maximum keyword matches (default 5)")
	format := fs.String("format", "text", "output: text, json, anthropic or functions")
	strategy := fs.String("strategy", "default", strategyHelp)
	profileName := fs.String("profile", "", "the Claude Code release to follow: claude-code-2.1.89 (default) or claude-code-2.1.332")
	limit := inputLimit(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	st, err := toolsearch.ParseStrategy(*strategy)
	if err != nil {
		return usageError{err}
	}
	var profile toolsearch.Profile
	if err := profile.UnmarshalText([]byte(*profileName)); err != nil {
		return usageError{err}
	}
	if *strategy == "default" {
		st = nil // the profile's own ranking
	}
	query := strings.Join(fs.Args(), " ")
	if query == "" {
		return usageError{errors.New("no query given")}
	}
	if *maxN < 0 {
		return usageError{fmt.Errorf("--max must be ≥ 1, got %d", *maxN)}
	}
	switch *format {
	case "text", "json", "anthropic", "functions":
	default:
		return usageError{fmt.Errorf("unknown --format %q", *format)}
	}
	reg, err := loadRegistry(*catalog, *limit)
	if err != nil {
		return err
	}
	res, err := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st, Profile: profile}).Search(query, *maxN)
	if err != nil {
		return err
	}
	switch *format {
	case "json":
		return writeJSON(stdout, json.RawMessage(res.JSON()))
	case "anthropic":
		return writeJSON(stdout, anthropicMessage(res))
	case "functions":
		content, _ := res.Content(toolsearch.FormatFunctions)
		_, err = fmt.Fprintln(stdout, content[0].Text)
		return err
	}
	return writeText(stdout, res)
}

// anthropicMessage returns the Anthropic user message that answers a
// ToolSearch call with id toolu_01 with res: the tool_result, whose content
// is the tool_reference blocks (or the no-match text), then the text blocks
// that follow it.
func anthropicMessage(res *toolsearch.Result) any {
	type toolResult struct {
		Type      string                    `json:"type"`
		ToolUseID string                    `json:"tool_use_id"`
		Content   []toolsearch.ContentBlock `json:"content"`
	}
	content, after := res.Content(toolsearch.FormatToolReference)
	blocks := []any{toolResult{"tool_result", "toolu_01", content}}
	for _, b := range after {
		blocks = append(blocks, b)
	}
	return struct {
		Role    string `json:"role"`
		Content []any  `json:"content"`
	}{"user", blocks}
}

func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// writeText prints a result for people: the form, then each match with its
// score, the rules that fired, and its description's first line.
func writeText(w io.Writer, res *toolsearch.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s query %q: %d match(es) among %d deferred tools\n", res.Form, res.Query, len(res.Matches), res.TotalDeferredTools)
	for i, m := range res.Matches {
		fmt.Fprintf(&b, "%2d. %s", i+1, m.Name)
		if res.Form == toolsearch.FormRanked {
			fmt.Fprintf(&b, "  score %.4g (%s)", m.Score, ruleNames(m.Rules))
		}
		if !m.Deferred {
			b.WriteString("  [not deferred]")
		}
		b.WriteByte('\n')
		if d, _, _ := strings.Cut(strings.TrimSpace(m.Description), "\n"); d != "" {
			fmt.Fprintf(&b, "    %s\n", clip(d, 100))
		}
	}
	if len(res.Matches) == 0 {
		content, _ := res.Content(toolsearch.FormatToolReference) // the no-match text
		fmt.Fprintf(&b, "%s\n", content[0].Text)
	}
	for _, n := range res.NotFound {
		fmt.Fprintf(&b, "not found: %s", n)
		if s := res.Suggestions[n]; len(s) > 0 {
			fmt.Fprintf(&b, " (did you mean %s?)", strings.Join(s, ", "))
		}
		b.WriteByte('\n')
	}
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ruleNames(r toolsearch.Rule) string {
	var names []string
	for _, x := range []struct {
		r    toolsearch.Rule
		name string
	}{
		{toolsearch.RulePartExact, "name part"},
		{toolsearch.RulePartSubstring, "in name part"},
		{toolsearch.RuleFullName, "whole or joined name"},
		{toolsearch.RuleHint, "hint"},
		{toolsearch.RuleDescription, "description"},
		{toolsearch.RuleArgument, "arguments"},
		{toolsearch.RuleSemantic, "meaning"},
	} {
		if r&x.r != 0 {
			names = append(names, x.name)
		}
	}
	return strings.Join(names, ", ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// cmdPrompt prints what the model sees with deferral, and what deferral
// saves.
func cmdPrompt(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("prompt", stderr)
	catalog := fs.String("catalog", "", "catalog `file` (default: the embedded demo catalog)")
	limit := inputLimit(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	reg, err := loadRegistry(*catalog, *limit)
	if err != nil {
		return err
	}
	s := toolsearch.NewSearcher(reg, nil)
	var all, sent []toolsearch.ToolDefinition
	deferred := 0
	for t := range reg.Tools() {
		def, err := definition(t)
		if err != nil {
			return err
		}
		all = append(all, def)
		if t.Deferred() {
			deferred++
		} else {
			sent = append(sent, def)
		}
	}
	sent = append(sent, s.ToolDefinition())
	allJSON, err := json.Marshal(all)
	if err != nil {
		return err
	}
	sentJSON, err := json.Marshal(sent)
	if err != nil {
		return err
	}
	section := s.SystemPromptSection()
	var b strings.Builder
	fmt.Fprintf(&b, "Tools sent with every request (%d):\n", len(sent))
	for _, d := range sent {
		fmt.Fprintf(&b, "  %s\n", d.Name)
	}
	fmt.Fprintf(&b, "\nSystem-prompt section:\n%s\n\n", section)
	withDeferral := len(sentJSON) + len(section)
	fmt.Fprintf(&b, "All %d tools loaded:  %d characters of tool definitions\n", len(all), len(allJSON))
	fmt.Fprintf(&b, "With deferral (%d deferred): %d characters (tool definitions %d + section %d)\n",
		deferred, withDeferral, len(sentJSON), len(section))
	if len(allJSON) > 0 {
		fmt.Fprintf(&b, "Saving: %d characters (%.1f%%)\n", len(allJSON)-withDeferral, 100*float64(len(allJSON)-withDeferral)/float64(len(allJSON)))
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

func definition(t toolsearch.Tool) (toolsearch.ToolDefinition, error) {
	schema := t.InputSchema
	if len(schema) == 0 && t.LoadSchema != nil {
		var err error
		if schema, err = t.LoadSchema(); err != nil {
			return toolsearch.ToolDefinition{}, err
		}
	}
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return toolsearch.ToolDefinition{Name: t.Name, Description: t.Description, InputSchema: schema}, nil
}

// batchQuery is one item of a queries file: a string, or an object with a
// "query" string and maybe "max_results", kept as written so that the call
// judges it as it would judge a model's.
type batchQuery struct {
	Query      string
	MaxResults json.RawMessage
}

func (q *batchQuery) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &q.Query)
	}
	var o struct {
		Query      *string         `json:"query"`
		MaxResults json.RawMessage `json:"max_results"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	if o.Query == nil {
		return errors.New(`query item has no "query" string`)
	}
	q.Query, q.MaxResults = *o.Query, o.MaxResults
	return nil
}

type batchResult struct {
	Query              string   `json:"query"`
	MaxResults         any      `json:"max_results,omitempty"`
	Matches            []string `json:"matches,omitempty"`
	TotalDeferredTools *int     `json:"total_deferred_tools,omitempty"`
	NotFound           []string `json:"not_found,omitempty"`
	Notes              []string `json:"notes,omitempty"`
	Content            string   `json:"content,omitempty"` // --texts: the tool_result's text, without matches
	After              []string `json:"after,omitempty"`   // --texts: the texts after the tool_result
	Error              string   `json:"error,omitempty"`
}

func cmdBatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("batch", stderr)
	catalog := fs.String("catalog", "", "catalog `file` (required)")
	queries := fs.String("queries", "", "queries `file`: a JSON array of strings or {\"query\",\"max_results\"} (required)")
	strategy := fs.String("strategy", "default", strategyHelp)
	maxCap := fs.Int("max-results-cap", defaultMaxResultsCap, "largest max_results honoured; a query asking for more is lowered to it, with a note, as a model's call is")
	profileName := fs.String("profile", "", "the Claude Code release to follow: claude-code-2.1.89 (default) or claude-code-2.1.332")
	pending := fs.String("pending", "", "MCP servers still connecting, comma-separated")
	maxHint := fs.Int("max-hint-bytes", 0, "longest search hint registered, in bytes (default: the registry's, 1 KiB)")
	texts := fs.Bool("texts", false, `add each result's texts in the tool_reference rendering: "content" (the tool_result's text, without matches) and "after"`)
	limit := inputLimit(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	st, err := toolsearch.ParseStrategy(*strategy)
	if err != nil {
		return usageError{err}
	}
	var profile toolsearch.Profile
	if err := profile.UnmarshalText([]byte(*profileName)); err != nil {
		return usageError{err}
	}
	if *catalog == "" || *queries == "" {
		return usageError{errors.New("--catalog and --queries are required")}
	}
	reg, err := loadRegistryWith(*catalog, *limit, &toolsearch.RegistryOptions{MaxHintBytes: *maxHint})
	if err != nil {
		return err
	}
	for _, srv := range strings.Split(*pending, ",") {
		if srv != "" {
			reg.SetServerStatus(srv, toolsearch.ServerPending)
		}
	}
	data, err := readInput(*queries, *limit)
	if err != nil {
		return err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return fmt.Errorf("%s: want a JSON array: %w", *queries, err)
	}
	if *maxCap < 1 {
		return usageError{fmt.Errorf("--max-results-cap must be ≥ 1, got %d", *maxCap)}
	}
	if *strategy == "default" {
		st = nil // the profile's own ranking
	}
	s := toolsearch.NewSearcher(reg, &toolsearch.SearchOptions{Strategy: st, Profile: profile, MaxResultsCap: *maxCap})
	field := "query"
	if st != nil {
		field = cmp.Or(st.Input().Field, "query")
	}
	out := make([]batchResult, 0, len(items))
	for i, raw := range items {
		out = append(out, batchOne(s, field, i, raw, *texts))
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// batchOne answers item i of a queries file through Searcher.Call, the
// path of a model's ToolSearch call: the item becomes the call's arguments,
// {field: query, "max_results"?: as written}, so a max_results that is not
// an integer ≥ 1 (the string "5" too) is an error entry, and one over the
// Searcher's cap is lowered to it with a note, as a model's call is.
func batchOne(s *toolsearch.Searcher, field string, i int, raw json.RawMessage, texts bool) batchResult {
	var q batchQuery
	if err := json.Unmarshal(raw, &q); err != nil {
		return batchResult{Query: string(raw), Error: fmt.Sprintf("item %d: %v", i, err)}
	}
	r := batchResult{Query: q.Query, MaxResults: defaultMaxResults}
	args := map[string]any{field: q.Query}
	if q.MaxResults != nil {
		r.MaxResults = q.MaxResults
		args["max_results"] = q.MaxResults
	}
	data, err := json.Marshal(args)
	if err != nil {
		r.Error = fmt.Sprintf("item %d: %v", i, err)
		return r
	}
	res, err := s.Call(data)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Matches = make([]string, 0, len(res.Matches))
	for _, m := range res.Matches {
		r.Matches = append(r.Matches, m.Name)
	}
	n := res.TotalDeferredTools
	r.TotalDeferredTools = &n
	r.NotFound, r.Notes = res.NotFound, res.Notes
	if texts {
		content, after := res.Content(toolsearch.FormatToolReference)
		if len(res.Matches) == 0 && len(content) > 0 {
			r.Content = content[0].Text // the no-match text; notes follow it inside the tool result
		}
		for _, b := range after {
			r.After = append(r.After, b.Text)
		}
	}
	return r
}
