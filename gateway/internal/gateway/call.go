package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch"
)

// callTool answers tools/call: ToolSearch is answered by the session; any
// other name (CallTool in bridge mode included) is checked by the
// session's call guard and forwarded to its upstream.
func (s *session) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/call without params"}
	}
	if req.Params.Name == toolsearch.ToolSearchName {
		return s.toolSearch(ctx, req.Params.Arguments), nil
	}
	tc, err := s.ts.CheckCall(req.Params.Name, req.Params.Arguments)
	if err != nil {
		s.g.set.Metrics.call("", "refused", 0)
		return errorResult(toolsearch.ModelText(err)), nil
	}
	return s.g.forward(ctx, req, tc)
}

// toolSearch answers a ToolSearch call: the result as the session renders
// it, a note naming the held tools in scope, and what changed in the
// deferred set since the session last heard. In dynamic mode the tools
// found join the session's list before the result is returned.
func (s *session) toolSearch(ctx context.Context, args json.RawMessage) *mcp.CallToolResult {
	start := time.Now()
	res, err := s.ts.CallContext(ctx, args)
	s.g.set.Metrics.search(time.Since(start), err)
	if err != nil {
		return errorResult(toolsearch.ModelText(err))
	}
	res.Notes = append(res.Notes, s.g.heldNotes(s.scope)...)
	content, after := res.Content(s.ts.Format())
	out := &mcp.CallToolResult{Content: make([]mcp.Content, 0, len(content)+len(after)+1)}
	for _, b := range append(content, after...) {
		out.Content = append(out.Content, &mcp.TextContent{Text: b.Text})
	}
	if ann := s.ts.Announce(); ann.Text != "" {
		out.Content = append(out.Content, &mcp.TextContent{Text: ann.Text})
	}
	if s.mode == ModeDynamic {
		s.sync()
	}
	return out
}

// errorResult is a tool result for the model: text, with isError set.
func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

// errCallTimeout is the cause of a call that ran out of time.
var errCallTimeout = errors.New("call timeout")

// forward calls the checked tool on its upstream under its raw name, with
// the gateway's call timeout, passing progress notifications back and a
// cancellation on (the SDK cancels the upstream request when ctx ends).
// The result is the upstream's, whole; a failed call is an isError result
// saying what failed, and a JSON-RPC error from the upstream is passed on.
func (g *Gateway) forward(ctx context.Context, req *mcp.CallToolRequest, tc *toolsearch.ToolCall) (*mcp.CallToolResult, error) {
	t := tc.Tool
	params := &mcp.CallToolParams{Name: t.MCPName, Arguments: tc.Arguments}
	if tok := req.Params.GetProgressToken(); tok != nil {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
			id := g.progress.add(ss, tok)
			defer g.progress.remove(id)
			params.SetProgressToken(id)
		}
	}
	g.mu.Lock()
	timeout := time.Duration(orDefault(g.cfg.Options.CallTimeout, Duration(60*time.Second)))
	g.mu.Unlock()
	cctx, cancel := context.WithTimeoutCause(ctx, timeout, errCallTimeout)
	defer cancel()
	start := time.Now()
	res, err := g.pool.Call(cctx, t.Server, params)
	took := time.Since(start)
	switch {
	case err == nil && res == nil:
		res, err = &mcp.CallToolResult{Content: []mcp.Content{}}, nil
	case err == nil:
		if n := resultSize(res); n > g.set.MaxResultBytes {
			g.set.Metrics.call(t.Server, "too_large", took)
			g.log.Warn("result over the size limit", "server", t.Server, "tool", t.MCPName, "bytes", n, "limit", g.set.MaxResultBytes)
			return errorResult(fmt.Sprintf("The result of %s was about %d bytes, over this gateway's limit of %d bytes; it was not passed on.",
				t.Name, n, g.set.MaxResultBytes)), nil
		}
		if res.Content == nil {
			res.Content = []mcp.Content{}
		}
		outcome := "ok"
		if res.IsError {
			outcome = "tool_error"
		}
		g.set.Metrics.call(t.Server, outcome, took)
		return res, nil
	case errors.Is(context.Cause(cctx), errCallTimeout):
		g.set.Metrics.call(t.Server, "timeout", took)
		return errorResult(fmt.Sprintf("%s did not answer within %s (this gateway's call timeout); the call was cancelled.", t.Name, timeout)), nil
	case ctx.Err() != nil: // the client cancelled: no one reads an answer
		g.set.Metrics.call(t.Server, "cancelled", took)
		return nil, ctx.Err()
	}
	g.set.Metrics.call(t.Server, "error", took)
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return nil, je
	}
	if errors.Is(err, errNotConnected) {
		return errorResult(fmt.Sprintf("%s cannot be called now: its server %s is not connected; try again later.", t.Name, t.Server)), nil
	}
	return errorResult(fmt.Sprintf("%s failed before its server answered: %v", t.Name, err)), nil
}

// resultSize is about the bytes res carries: its texts and data, and its
// structured content encoded.
func resultSize(res *mcp.CallToolResult) int {
	n := 0
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			n += len(c.Text)
		case *mcp.ImageContent:
			n += len(c.Data)
		case *mcp.AudioContent:
			n += len(c.Data)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				n += len(c.Resource.Text) + len(c.Resource.Blob)
			}
		default:
			n += 256
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return n
		}
		n += len(b)
	}
	return n
}

// progressRoutes maps the progress tokens the gateway sends upstream to
// the downstream session and token of the call, and passes progress
// notifications back, at most one per interval per call (a flood is thinned,
// the last one of a burst may be dropped: progress is advisory).
type progressRoutes struct {
	interval time.Duration
	next     atomic.Uint64
	m        sync.Map // string → *progressRoute
}

type progressRoute struct {
	ss    *mcp.ServerSession
	token any
	mu    sync.Mutex
	last  time.Time
}

func (p *progressRoutes) add(ss *mcp.ServerSession, token any) string {
	id := "toolsearch-" + strconv.FormatUint(p.next.Add(1), 10)
	p.m.Store(id, &progressRoute{ss: ss, token: token})
	return id
}

func (p *progressRoutes) remove(id string) { p.m.Delete(id) }

// forward passes one upstream progress notification to its call's client.
func (p *progressRoutes) forward(ctx context.Context, n *mcp.ProgressNotificationParams) {
	if n == nil {
		return
	}
	id, _ := n.ProgressToken.(string)
	v, ok := p.m.Load(id)
	if !ok {
		return // not a call of ours, or one that has ended
	}
	r := v.(*progressRoute)
	now := time.Now()
	r.mu.Lock()
	if !r.last.IsZero() && now.Sub(r.last) < p.interval {
		r.mu.Unlock()
		return
	}
	r.last = now
	r.mu.Unlock()
	_ = r.ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: r.token, Progress: n.Progress, Total: n.Total, Message: n.Message})
}
