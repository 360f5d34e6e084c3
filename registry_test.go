package toolsearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names(r *Registry) []string {
	var out []string
	for t := range r.Tools() {
		out = append(out, t.Name)
	}
	return out
}

func TestZeroRegistryIsUsable(t *testing.T) {
	var r Registry
	assert.Equal(t, 0, registeredCount(&r))
	res, err := NewSearcher(&r, nil).Search("anything", 0)
	require.NoError(t, err)
	assert.NotNil(t, res.Matches, "matches must encode as [], not null")
	assert.Contains(t, string(res.JSON()), `"matches":[]`)
	require.NoError(t, r.Register(Tool{Name: "A", ShouldDefer: true}))
	assert.Equal(t, []string{"A"}, names(&r))
}

func TestNameValidation(t *testing.T) {
	for _, tc := range []struct {
		name, tool string
		wantErr    string // substring; "" = valid
	}{
		{"plain", "Read", ""},
		{"all allowed characters", "a-Z_0.9", ""},
		{"128 bytes", strings.Repeat("a", 128), ""},
		{"empty", "", "empty"},
		{"129 bytes", strings.Repeat("a", 129), "129 bytes long, the limit is 128"},
		{"space", "a b", `' ' at byte 1`},
		{"each bad character reported", "a b/c\x00", `' ' at byte 1, '/' at byte 3, '\x00' at byte 5`},
		{"unicode", "naïve", `'ï' at byte 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Registry
			err := r.Register(Tool{Name: tc.tool})
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrInvalidName)
			assert.Contains(t, err.Error(), tc.wantErr)
			assert.Equal(t, 0, registeredCount(&r), "an invalid tool must not be registered")
		})
	}
}

func TestDuplicates(t *testing.T) {
	var r Registry
	require.NoError(t, r.Register(Tool{Name: "A", Aliases: []string{"Alpha"}}))
	err := r.Register(Tool{Name: "A"})
	require.ErrorIs(t, err, ErrDuplicateTool)
	assert.Contains(t, err.Error(), `"A" is taken by "A"`)

	err = r.Register(Tool{Name: "Alpha"})
	require.ErrorIs(t, err, ErrDuplicateTool, "a name taken as an alias is a duplicate")

	err = r.Register(Tool{Name: "B"}, Tool{Name: "B"})
	require.ErrorIs(t, err, ErrDuplicateTool, "duplicates within one call")
	assert.Equal(t, []string{"A"}, names(&r), "Register is all or nothing")

	require.NoError(t, r.Replace(Tool{Name: "A", Description: "new"}), "Replace takes an existing name")
	got, ok := r.Lookup("A")
	require.True(t, ok)
	assert.Equal(t, "new", got.Description)
	require.NoError(t, r.Register(Tool{Name: "Alpha"}), "replacing A without its alias frees the alias")
}

func TestRegisterReportsEveryProblem(t *testing.T) {
	var r Registry
	require.NoError(t, r.Register(Tool{Name: "Taken"}))
	err := r.Register(Tool{Name: "ok"}, Tool{Name: "bad name"}, Tool{Name: "Taken"}, Tool{Name: "S", InputSchema: json.RawMessage(`{`)})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrInvalidName)
	assert.ErrorIs(t, err, ErrDuplicateTool)
	assert.ErrorIs(t, err, ErrInvalidSchema)
	for _, n := range []string{`"bad name"`, `"Taken"`, `"S"`} {
		assert.Contains(t, err.Error(), n)
	}
	assert.Equal(t, []string{"Taken"}, names(&r))
}

func TestSchemaValidation(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		wantErr      string
	}{
		{"object", `{"type":"object","properties":{"a":{"type":"integer","minimum":1}}}`, ""},
		{"empty object", `{}`, ""},
		{"internal ref", `{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}`, ""},
		{"recursive ref", `{"type":"object","properties":{"child":{"$ref":"#"}}}`, ""},
		{"draft-04 style accepted", `{"type":"object","properties":{"n":{"type":"integer","minimum":0,"exclusiveMinimum":true}}}`, ""},
		{"draft-07 declared", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`, ""},
		{"not JSON", `{"type":`, "not valid JSON"},
		{"not an object", `["type"]`, "not a JSON object"},
		{"boolean schema", `true`, "not a JSON object"},
		{"bad keyword value", `{"type":"object","properties":{"a":{"type":5}}}`, "invalid input schema"},
		{"file ref", `{"$ref":"file:///etc/passwd"}`, "refusing to load an external document"},
		{"http ref", `{"properties":{"a":{"$ref":"http://example.com/s.json"}}}`, "refusing to load"},
		{"https ref", `{"$ref":"https://example.com/s.json#/x"}`, "refusing to load"},
		{"relative ref", `{"$ref":"other.json"}`, "refusing to load"},
		{"unknown metaschema", `{"$schema":"https://example.com/meta","type":"object"}`, "refusing to load"},
		// The schema library reads these with unchecked type assertions:
		// it panicked, which crashed a process registering 32 such tools
		// (compiled on goroutines).
		{"keyword the library reads unchecked", `{"regexProperties":1}`, "the schema library failed on it"},
		{"reference to a list of property names", `{"dependencies":{"a":["b"]},"$ref":"#/dependencies/a"}`, "the schema library failed on it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Registry
			err := r.Register(Tool{Name: "T", InputSchema: json.RawMessage(tc.schema)})
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrInvalidSchema)
			assert.Contains(t, err.Error(), tc.wantErr)
			assert.Contains(t, err.Error(), `register "T"`, "the error names the tool")

			// Many at once are checked on several goroutines.
			tools := make([]Tool, 2*parallelSchemas)
			for i := range tools {
				tools[i] = Tool{Name: fmt.Sprintf("T%d", i), InputSchema: json.RawMessage(tc.schema[:len(tc.schema)-1] + fmt.Sprintf(`,"title":"%d"}`, i))}
			}
			skipped, err := r.SetServerTools("many", tools)
			require.NoError(t, err)
			require.Len(t, skipped, len(tools), "every tool refused")
			for _, e := range skipped {
				require.ErrorIs(t, e, ErrInvalidSchema)
			}
		})
	}
}

func TestDeferralRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		tool Tool
		want bool
	}{
		{"alwaysLoad beats MCP", Tool{Name: "mcp__s__t", Server: "s", AlwaysLoad: true}, false},
		{"alwaysLoad beats shouldDefer", Tool{Name: "X", ShouldDefer: true, AlwaysLoad: true}, false},
		{"MCP by server", Tool{Name: "t", Server: "s"}, true},
		{"MCP by prefix", Tool{Name: "mcp__s__t"}, true},
		{"MCP ignores shouldDefer false", Tool{Name: "mcp__s__t", ShouldDefer: false}, true},
		{"ToolSearch never", Tool{Name: "ToolSearch", ShouldDefer: true}, false},
		{"shouldDefer", Tool{Name: "X", ShouldDefer: true}, true},
		{"default not deferred", Tool{Name: "X"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.tool.Deferred())
		})
	}
}

func TestPoolOrderIgnoresRegistrationOrder(t *testing.T) {
	tools := []Tool{
		{Name: "mcp__b__x", Server: "b"}, {Name: "Zeta"}, {Name: "alpha"}, {Name: "mcp__a__y", Server: "a"},
		{Name: "Beta"}, {Name: "served", Server: "z"}, {Name: "mcp__B__z"},
	}
	want := []string{"Beta", "Zeta", "alpha", "mcp__B__z", "mcp__a__y", "mcp__b__x", "served"}
	for i := range 5 {
		perm := slices.Clone(tools)
		for j := range perm {
			k := (j*7 + i*3) % len(perm)
			perm[j], perm[k] = perm[k], perm[j]
		}
		var r Registry
		for _, tl := range perm {
			require.NoError(t, r.Register(tl))
		}
		assert.Equal(t, want, names(&r), "permutation %d", i)
	}
}

func TestMCPNaming(t *testing.T) {
	assert.Equal(t, "mcp__github__create_issue", mcpToolName("github", "create_issue"), "clean names are Claude Code's")
	assert.Equal(t, "mcp__my-srv__get__file-v2", mcpToolName("my-srv", "get__file-v2"), "a tool may hold __")
	assert.Equal(t, "mcp__my_server_"+nameHash("my server")+"__get_file-v2_"+nameHash("get.file-v2"), mcpToolName("my server", "get.file-v2"))
	assert.Equal(t, "mcp__a_b_"+nameHash("a__b")+"__c", mcpToolName("a__b", "c"), "a server part never holds __")
	assert.Equal(t, "mcp__a_"+nameHash("a_")+"__b", mcpToolName("a_", "b"), "nor ends with _")
	assert.Equal(t, "d698af2b", nameHash("工具"), "the hash is stable")

	long := strings.Repeat("é", maxMCPDescription+10)
	tl := NewMCPTool("srv.1", "do it", long, json.RawMessage(testSchema), map[string]any{
		"anthropic/alwaysLoad": true,
		"anthropic/searchHint": "  send \t a\n message  ",
	})
	assert.Equal(t, "mcp__srv_1_"+nameHash("srv.1")+"__do_it_"+nameHash("do it"), tl.Name)
	assert.Equal(t, "srv.1", tl.Server)
	assert.Equal(t, "do it", tl.MCPName)
	assert.True(t, tl.AlwaysLoad)
	assert.Equal(t, "send a message", tl.SearchHint)
	assert.Equal(t, strings.Repeat("é", maxMCPDescription)+"… [truncated]", tl.Description)

	short := NewMCPTool("s", "t", strings.Repeat("x", maxMCPDescription), nil, map[string]any{
		"anthropic/alwaysLoad": false,
		"anthropic/searchHint": " \n ",
	})
	assert.Equal(t, strings.Repeat("x", maxMCPDescription), short.Description, "exactly 2,048 characters is not cut")
	assert.False(t, short.AlwaysLoad)
	assert.Empty(t, short.SearchHint, "a blank hint is no hint")
	assert.NoError(t, (&Registry{}).Register(short))
}

// TestMCPNamesNeverCollide: tools that sanitizing used to give one name
// (a server "a" with tool "b__c" and a server "a__b" with tool "c"; servers
// "my.srv" and "my_srv"; tools named in Chinese) get distinct, valid,
// stable names, all registered; a server cannot list a tool that takes the
// name of another server's tool.
func TestMCPNamesNeverCollide(t *testing.T) {
	listings := map[string][]string{
		"a":      {"b__c", "b_c"},
		"a__b":   {"c"},
		"a_b":    {"c"},
		"my.srv": {"t"},
		"my_srv": {"t", "t.x", "t_x"},
		"s":      {"工具", "数据", "a.b", "a_b", "a b", "a:b"},
		"s_":     {"x"},
		"_s":     {"x"},
	}
	var r Registry
	seen := map[string]string{}
	for _, srv := range slices.Sorted(maps.Keys(listings)) {
		var tools []Tool
		for _, name := range listings[srv] {
			tl := NewMCPTool(srv, name, "", nil, nil)
			require.NoError(t, checkName(tl.Name), "%s/%s gives a valid name", srv, name)
			assert.Equal(t, tl.Name, NewMCPTool(srv, name, "", nil, nil).Name, "stable")
			if other, dup := seen[tl.Name]; dup {
				t.Errorf("%s/%s and %s are both named %s", srv, name, other, tl.Name)
			}
			seen[tl.Name] = srv + "/" + name
			rest, _ := strings.CutPrefix(tl.Name, "mcp__")
			server, _, _ := strings.Cut(rest, "__")
			assert.Equal(t, mcpServerPart(srv), server, "the name says which server %s/%s is from", srv, name)
			tools = append(tools, tl)
		}
		require.NoError(t, setServerTools(&r, srv, tools), "server %s", srv)
	}
	assert.Len(t, names(&r), len(seen), "every tool registered")
}

// TestMetaOfTheWrongType: a _meta value the package reads, of the wrong
// type, is reported when the tool is registered, naming the key; the
// server's other tools are registered.
func TestMetaOfTheWrongType(t *testing.T) {
	var r Registry
	skipped, err := r.SetServerTools("s", []Tool{
		NewMCPTool("s", "bad_load", "", nil, map[string]any{"anthropic/alwaysLoad": "true"}),
		NewMCPTool("s", "bad_hint", "", nil, map[string]any{"anthropic/searchHint": []any{"a"}, "anthropic/alwaysLoad": 1.0}),
		NewMCPTool("s", "null_is_absent", "", nil, map[string]any{"anthropic/alwaysLoad": nil, "other/key": 5.0}),
	})
	require.NoError(t, err)
	require.Len(t, skipped, 2)
	require.ErrorIs(t, skipped[0], ErrInvalidMeta)
	assert.EqualError(t, skipped[0], `register "mcp__s__bad_load": toolsearch: invalid _meta: "anthropic/alwaysLoad" is a string, want a boolean`)
	assert.EqualError(t, skipped[1], `register "mcp__s__bad_hint": toolsearch: invalid _meta: "anthropic/alwaysLoad" is a number, want a boolean; "anthropic/searchHint" is an array, want a string`)
	assert.Equal(t, []string{"mcp__s__null_is_absent"}, names(&r))
}

func TestServers(t *testing.T) {
	var r Registry
	require.NoError(t, r.Register(Tool{Name: "Core"}))
	err := setServerTools(&r, "gh", []Tool{
		NewMCPTool("gh", "create_issue", "Create an issue.", nil, nil),
		NewMCPTool("gh", "list_issues", "List issues.", nil, nil),
		{Name: "mcp__gh__bad tool"},
		NewMCPTool("gh", "broken", "", json.RawMessage(`{"type":7}`), nil),
	})
	require.Error(t, err, "bad tools are reported")
	assert.ErrorIs(t, err, ErrInvalidName)
	assert.ErrorIs(t, err, ErrInvalidSchema)
	assert.Equal(t, []string{"Core", "mcp__gh__create_issue", "mcp__gh__list_issues"}, names(&r), "good tools are registered all the same")

	// tools/list_changed: the list is replaced at once.
	require.NoError(t, setServerTools(&r, "gh", []Tool{NewMCPTool("gh", "get_issue", "Get an issue.", nil, nil)}))
	assert.Equal(t, []string{"Core", "mcp__gh__get_issue"}, names(&r))

	err = setServerTools(&r, "other", []Tool{{Name: "Core"}})
	require.ErrorIs(t, err, ErrDuplicateTool, "a server cannot take a name outside it")
	err = setServerTools(&r, "third", []Tool{{Name: "x", Server: "other"}})
	require.ErrorIs(t, err, ErrServerMismatch, "a tool of another server is not an invalid name")
	require.NotErrorIs(t, err, ErrInvalidName)
	assert.Contains(t, err.Error(), `its Server is "other", not "third"`)
	_, err = r.SetServerTools("", nil)
	require.ErrorIs(t, err, ErrInvalidName, "an empty server name is a whole-call error")

	s := NewSearcher(&r, nil)
	r.SetServerStatus("gh", ServerDisconnected)
	assert.Equal(t, []string{"Core"}, names(&r), "a disconnected server's tools are not available")
	assert.Empty(t, deferredNames(s))
	r.SetServerStatus("jira", ServerPending)
	res, err := s.Search("issue", 0)
	require.NoError(t, err)
	assert.Empty(t, res.Matches)
	assert.Equal(t, []string{"jira"}, res.PendingMCPServers)
	r.SetServerStatus("gh", ServerConnected)
	assert.Equal(t, []string{"mcp__gh__get_issue"}, deferredNames(s), "tools come back on reconnect")
	assert.Equal(t, ServerPending, r.ServerStatus("jira"))

	assert.Equal(t, 1, r.RemoveServer("gh"))
	assert.Equal(t, []string{"Core"}, names(&r))
	r.RemoveServer("jira")
	res, err = s.Search("x", 0)
	require.NoError(t, err)
	assert.Empty(t, res.PendingMCPServers, "a removed server is no longer pending")
}

func TestRemove(t *testing.T) {
	r, err := NewRegistry(nil, Tool{Name: "A", Aliases: []string{"a1"}}, Tool{Name: "B"})
	require.NoError(t, err)
	assert.Equal(t, 1, r.Remove("A", "Nope", "A"), "unknown names are ignored and a name counts once")
	assert.Equal(t, []string{"B"}, names(r), "known names are removed even when others are not")
	require.NoError(t, r.Register(Tool{Name: "a1"}), "the alias of a removed tool is free")
}

func TestRegistryOwnsItsData(t *testing.T) {
	sch := json.RawMessage(`{"type":"object"}`)
	aliases := []string{"x"}
	var r Registry
	require.NoError(t, r.Register(Tool{Name: "A", InputSchema: sch, Aliases: aliases}))
	sch[2] = 'X'
	aliases[0] = "y"
	got, _ := r.Lookup("A")
	assert.Equal(t, `{"type":"object"}`, string(got.InputSchema), "the caller's slice is copied")
	assert.Equal(t, []string{"x"}, got.Aliases)
	got.Aliases[0] = "z"
	again, _ := r.Lookup("A")
	assert.Equal(t, []string{"x"}, again.Aliases, "Lookup returns a copy")
}

func TestConcurrentReadersAndWriters(t *testing.T) {
	r := specPool(t)
	s := NewSearcher(r, nil)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				n := fmt.Sprintf("Tool%d_%d", w, i)
				assert.NoError(t, r.Register(Tool{Name: n, Description: "web thing", ShouldDefer: true}))
				if i%2 == 0 {
					assert.Equal(t, 1, r.Remove(n))
				}
			}
		})
		wg.Go(func() {
			for range 100 {
				res, err := s.Search("web", 3)
				if assert.NoError(t, err) {
					assert.LessOrEqual(t, len(res.Matches), 3)
				}
				_ = s.SystemPromptSection()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 12+4*25, registeredCount(r))
}

func TestErrorsAreWrapped(t *testing.T) {
	var r Registry
	err := r.Register(Tool{Name: ""})
	assert.True(t, errors.Is(err, ErrInvalidName))
	assert.Contains(t, err.Error(), `register ""`)
}

// TestBuildHoldsNoLock: while a server's tools are being checked and their
// schemas compiled (held inside build here), every reader and the other
// servers' writers go on; the registration then publishes at once.
func TestBuildHoldsNoLock(t *testing.T) {
	var r Registry
	require.NoError(t, setServerTools(&r, "small", []Tool{NewMCPTool("small", "fetch", "Fetch a page.", nil, nil)}))
	inBuild, release := make(chan struct{}), make(chan struct{})
	builtHook = func() {
		builtHook = nil
		close(inBuild)
		<-release
	}
	defer func() { builtHook = nil }()
	done := make(chan error)
	go func() {
		_, err := r.SetServerTools("big", distinctSchemaTools("big", 200))
		done <- err
	}()
	<-inBuild
	others := make(chan struct{})
	go func() {
		defer close(others)
		_, ok := r.Lookup("mcp__small__fetch")
		assert.True(t, ok)
		assert.Equal(t, ServerConnected, r.ServerStatus("small"))
		_, err := NewSession(&r, nil).CheckCall("mcp__small__fetch", nil)
		assert.NoError(t, err)
		r.SetServerStatus("small", ServerPending)
		assert.NoError(t, setServerTools(&r, "other", []Tool{NewMCPTool("other", "x", "", nil, nil)}))
		res, err := NewSearcher(&r, nil).Search("x", 0)
		assert.NoError(t, err)
		assert.Len(t, res.Matches, 1)
		assert.Equal(t, []string{"small"}, res.PendingMCPServers)
	}()
	select {
	case <-others:
	case <-time.After(10 * time.Second):
		t.Fatal("readers and other servers waited for a registration's build")
	}
	close(release)
	require.NoError(t, <-done)
	_, ok := r.Lookup("mcp__big__tool_199")
	assert.True(t, ok, "the registration is published when it returns")
	assert.Len(t, names(&r), 201, "200 big, 1 other; small is pending")
}

// TestReadersNeverWaitForAWriter: while a writer holds the registry's lock
// (publishing the next snapshot, held inside publish here), Lookup,
// ServerStatus, CheckCall and searches answer from the published snapshot.
func TestReadersNeverWaitForAWriter(t *testing.T) {
	var r Registry
	require.NoError(t, setServerTools(&r, "small", []Tool{NewMCPTool("small", "fetch", "Fetch a page.", nil, nil)}))
	r.SetServerStatus("gone", ServerDisconnected)
	inPublish, release := make(chan struct{}), make(chan struct{})
	publishHook = func() {
		publishHook = nil
		close(inPublish)
		<-release
	}
	defer func() { publishHook = nil }()
	done := make(chan error)
	go func() {
		_, err := r.SetServerTools("big", distinctSchemaTools("big", 50))
		done <- err
	}()
	<-inPublish
	readers := make(chan struct{})
	go func() {
		defer close(readers)
		_, ok := r.Lookup("mcp__small__fetch")
		assert.True(t, ok)
		assert.Equal(t, ServerDisconnected, r.ServerStatus("gone"))
		_, err := NewSession(&r, nil).CheckCall("mcp__small__fetch", nil)
		assert.NoError(t, err)
		_, err = NewSession(&r, nil).CheckCall("mcp__big__tool_1", nil)
		assert.ErrorIs(t, err, ErrUnknownTool, "not published yet")
		res, err := NewSearcher(&r, nil).Search("fetch", 0)
		assert.NoError(t, err)
		assert.Len(t, res.Matches, 1)
	}()
	select {
	case <-readers:
	case <-time.After(10 * time.Second):
		t.Fatal("readers waited for a writer")
	}
	close(release)
	require.NoError(t, <-done)
	_, ok := r.Lookup("mcp__big__tool_1")
	assert.True(t, ok)
}

// TestServerStatusText: a ServerStatus marshals as its name and reads it
// back; a value without a name prints as a number, not as a status.
func TestServerStatusText(t *testing.T) {
	for st, want := range map[ServerStatus]string{ServerConnected: "connected", ServerPending: "pending", ServerDisconnected: "disconnected"} {
		b, err := st.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, want, string(b))
		var got ServerStatus
		require.NoError(t, got.UnmarshalText(b))
		assert.Equal(t, st, got)
	}
	assert.Equal(t, "ServerStatus(7)", ServerStatus(7).String())
	assert.Equal(t, "ServerStatus(-1)", ServerStatus(-1).String())
	var st ServerStatus
	require.ErrorIs(t, st.UnmarshalText([]byte("ServerStatus(7)")), ErrInvalidOption)
	require.ErrorIs(t, st.UnmarshalText([]byte("Connected")), ErrInvalidOption)
}
