package toolsearch

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNameParts332(t *testing.T) {
	for _, c := range []struct {
		tool          Tool
		parts, coarse []string
		mcp           bool
	}{
		{NewMCPTool("github", "create_issue", "", nil, nil), []string{"github", "create", "issue"}, []string{"github", "create_issue"}, true},
		// Raw names split on whitespace, '_' and '.'; hyphens stay.
		{NewMCPTool("my.srv", "send.message", "", nil, nil), []string{"my", "srv", "send", "message"}, []string{"my.srv", "send.message"}, true},
		{NewMCPTool("My Server", "Get Weather", "", nil, nil), []string{"my", "server", "get", "weather"}, []string{"my server", "get weather"}, true},
		{NewMCPTool("fs-tools", "add-task", "", nil, nil), []string{"fs-tools", "add-task"}, []string{"fs-tools", "add-task"}, true},
		// camelCase raw names are not split.
		{NewMCPTool("CamelSrv", "listChannels", "", nil, nil), []string{"camelsrv", "listchannels"}, []string{"camelsrv", "listchannels"}, true},
		// Without MCPName: the name's part after mcp__<server>__.
		{Tool{Name: "mcp__a_b__x_y", Server: "a.b"}, []string{"a", "b", "x", "y"}, []string{"a.b", "x_y"}, true},
		{Tool{Name: "plain", Server: "srv"}, []string{"srv", "plain"}, []string{"srv", "plain"}, true},
		// No server: the name is parsed, at the first "__" after the prefix.
		{Tool{Name: "mcp__a__b__c"}, []string{"a", "b", "c"}, []string{"a", "b__c"}, true},
		{Tool{Name: "mcp__solo"}, []string{"solo"}, []string{"solo"}, true},
		{Tool{Name: "mcp____x"}, []string{"mcp", "x"}, []string{"mcp____x"}, false},
		// Other tools: the name's words, and the name whole.
		{Tool{Name: "getURLFor"}, []string{"get", "urlfor"}, []string{"geturlfor"}, false},
		{Tool{Name: "WebFetch"}, []string{"web", "fetch"}, []string{"webfetch"}, false},
		{Tool{Name: "read_file.v2"}, []string{"read", "file.v2"}, []string{"read_file.v2"}, false},
	} {
		parts, coarse, mcp := nameParts332(&c.tool)
		assert.Equal(t, c.parts, parts, "parts of %q (server %q, tool %q)", c.tool.Name, c.tool.Server, c.tool.MCPName)
		assert.Equal(t, c.coarse, coarse, "coarse parts of %q", c.tool.Name)
		assert.Equal(t, c.mcp, mcp, "%q scores as MCP", c.tool.Name)
	}
}

func TestClaudeCodeToolPart(t *testing.T) {
	for in, want := range map[string]string{
		"send_message":        "send_message",
		"send.message":        "send_message",
		"Get Weather":         "Get_Weather",
		"add-task":            "add-task",
		"获取":                  "__",
		"smile😀":              "smile__",
		"claude.ai  Gmail  x": "claude_ai_Gmail_x",
	} {
		assert.Equal(t, want, claudeCodeToolPart(in), "claudeCodeToolPart(%q)", in)
	}
}
