package toolsearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// packageErrors returns errors of every kind the package returns, by
// what made them.
func packageErrors(t *testing.T) map[string]error {
	t.Helper()
	errs := map[string]error{}
	var r Registry
	errs["Register: bad name"] = r.Register(Tool{Name: "bad name"})
	require.NoError(t, r.Register(Tool{Name: "Taken", ShouldDefer: true, Aliases: []string{"taken_alias"}}))
	errs["Register: duplicate"] = r.Register(Tool{Name: "Taken"})
	errs["Register: alias"] = r.Register(Tool{Name: "Other", Aliases: []string{"bad alias"}})
	errs["Register: schema"] = r.Register(Tool{Name: "S", InputSchema: json.RawMessage(`{"type":5}`)})
	errs["Register: schema over a limit"] = r.Register(Tool{Name: "Big", InputSchema: json.RawMessage(nested(100))})
	errs["Register: _meta"] = r.Register(NewMCPTool("srv", "t", "", nil, map[string]any{"anthropic/alwaysLoad": "yes"}))
	errs["Register: several"] = r.Register(Tool{Name: "bad name"}, Tool{Name: "Taken"})
	skipped, err := r.SetServerTools("srv", []Tool{{Name: "mcp__other__x", Server: "other"}})
	require.NoError(t, err)
	errs["SetServerTools: mismatch"] = errors.Join(skipped...)
	_, errs["SetServerTools: no server"] = r.SetServerTools("", nil)
	_, errs["ParseStrategy"] = ParseStrategy("fuzzy")
	_, errs["ParseCatalog"] = ParseCatalog([]byte(`{"tools":[{"description":"x"}]}`))
	var f Format
	errs["Format.UnmarshalText"] = f.UnmarshalText([]byte("xml"))
	var m ToolSearchMode
	errs["ToolSearchMode.UnmarshalText"] = m.UnmarshalText([]byte("auto:200"))
	sess := NewSession(&r, &SessionOptions{MaxDiscovered: 1})
	errs["Session.AddDiscovered"] = errors.Join(sess.AddDiscovered("bad name", "A", "B")...)
	errs["Session.Restore"] = sess.Restore(SessionState{Discovered: []string{"bad name"}})
	_, errs["Session.Resume"] = sess.Resume(json.RawMessage(`{"messages": 5}`))
	_, errs["Session.Call"] = sess.Call(json.RawMessage(`{"query": 5}`))
	_, errs["Session.CheckCall"] = sess.CheckCall("Nope", nil)
	bad := NewSearcher(&r, &SearchOptions{Strategy: inputStrategy{DefaultStrategy(), StrategyInput{Schema: json.RawMessage(`{"type":5}`)}}})
	_, errs["a strategy's input schema"] = bad.Call(json.RawMessage(`{"query":"x"}`))
	lazy := Tool{Name: "Lazy", ShouldDefer: true, LoadSchema: func() (json.RawMessage, error) { return json.RawMessage(`{"type":5}`), nil }}
	require.NoError(t, r.Register(lazy))
	_, errs["a lazy schema refused"] = r.load().named("Lazy").loadSchema()
	for what, err := range errs {
		require.Error(t, err, what)
	}
	return errs
}

// TestErrorsSayItOnce: no error of the package names the package twice
// ("toolsearch: x: toolsearch: y"), and ModelText gives each without the
// package prefix, its other words unchanged.
func TestErrorsSayItOnce(t *testing.T) {
	for what, err := range packageErrors(t) {
		for _, line := range strings.Split(err.Error(), "\n") { // errors.Join puts one error a line
			assert.LessOrEqual(t, strings.Count(line, "toolsearch: "), 1, "%s: %q", what, line)
		}
		model := ModelText(err)
		assert.NotContains(t, model, "toolsearch: ", "%s: %q", what, model)
		assert.Equal(t, strings.ReplaceAll(err.Error(), "toolsearch: ", ""), model, "%s: the model's text is the error's, without the prefix", what)
	}
}

// TestModelText: the text for the model is built from the errors' own
// parts, so that a user's or a server's words are quoted as they are,
// even when they look like the package's.
func TestModelText(t *testing.T) {
	assert.Empty(t, ModelText(nil))
	assert.Equal(t, "invalid tool name", ModelText(ErrInvalidName))
	server := errors.New("toolsearch: the server says no")
	assert.Equal(t, "toolsearch: the server says no", ModelText(server), "another's error is quoted whole")
	mine := fmt.Errorf("attach: %w", ErrInvalidName)
	assert.Equal(t, "attach: toolsearch: invalid tool name", ModelText(mine), "so is a package error wrapped by another's words")

	reg, err := NewRegistry(nil, Tool{Name: "Lazy", ShouldDefer: true, Description: "lazy",
		LoadSchema: func() (json.RawMessage, error) { return nil, server }})
	require.NoError(t, err)
	s := NewSession(reg, nil)
	res := sessionSearch(t, s, "select:Lazy")
	require.Len(t, res.Notes, 1)
	assert.Equal(t, `Lazy was left out: load schema of "Lazy": toolsearch: the server says no`, res.Notes[0],
		"the server's words in the note are its own")
	_, err = s.CheckCall("Lazy", nil)
	require.ErrorIs(t, err, ErrToolUnavailable)
	assert.Equal(t, `Tool Lazy cannot be called: load schema of "Lazy": toolsearch: the server says no.`, err.Error())
	require.ErrorIs(t, err, ErrToolUnavailable)

	var r Registry
	joined := r.Register(Tool{Name: "bad name"}, Tool{Name: ""})
	assert.Equal(t, "register \"bad name\": invalid tool name: characters outside [A-Za-z0-9_.-]: ' ' at byte 3\nregister \"\": invalid tool name: empty", ModelText(joined))
}
