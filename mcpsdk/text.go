package tsmcpsdk

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CallToolText calls the tool as CallTool does and returns its result as
// one text, for agent frameworks whose tool output is a string (the
// Config.CallTool of the eino and Genkit adapters of this project):
//
//   - the content blocks in order, one per line: a text block as its
//     text, any other block (image, audio, resource link, embedded
//     resource) as its MCP JSON encoding, so that nothing is dropped;
//   - no content at all: the structured content as JSON, or "" without
//     it;
//   - a result with isError set gives the same text: the server wrote it
//     for the model, and those frameworks have no error flag (a Go error
//     would end the agent's run).
//
// The error is CallTool's (unknown tool, a failed call) or a block that
// cannot be encoded.
func (s *Servers) CallToolText(ctx context.Context, name string, args json.RawMessage) (string, error) {
	res, err := s.CallTool(ctx, name, args)
	if err != nil {
		return "", err
	}
	return resultText(name, res)
}

// resultText renders res as CallToolText describes.
func resultText(name string, res *mcp.CallToolResult) (string, error) {
	if res == nil {
		return "", nil
	}
	if len(res.Content) == 0 {
		if res.StructuredContent == nil {
			return "", nil
		}
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return "", fmt.Errorf("call %q: encoding its structured content: %w", name, err)
		}
		return string(b), nil
	}
	var b strings.Builder
	for i, c := range res.Content {
		if i > 0 {
			b.WriteByte('\n')
		}
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
			continue
		}
		js, err := json.Marshal(c)
		if err != nil {
			return "", fmt.Errorf("call %q: encoding content block %d: %w", name, i, err)
		}
		b.Write(js)
	}
	return b.String(), nil
}
