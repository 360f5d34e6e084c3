package toolsearchtest_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/toolsearchtest"
)

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// TestTurnsInEachAPI: one script of two turns, played to each API.
func TestTurnsInEachAPI(t *testing.T) {
	turns := []toolsearchtest.Turn{
		{Text: "Looking.", Calls: []toolsearchtest.Call{{Name: "ToolSearch", Input: `{"query":"weather"}`}, {ID: "mine", Name: "get_time"}}},
		toolsearchtest.Text("Sunny."),
	}
	for _, tt := range []struct {
		path        string
		first, last string
	}{
		{"/v1/messages",
			`{"content":[{"text":"Looking.","type":"text"},{"id":"toolu_1","input":{"query":"weather"},"name":"ToolSearch","type":"tool_use"},{"id":"mine","input":{},"name":"get_time","type":"tool_use"}],"id":"msg_1","model":"scripted","role":"assistant","stop_reason":"tool_use","stop_sequence":null,"type":"message","usage":{"input_tokens":1,"output_tokens":1}}`,
			`{"content":[{"text":"Sunny.","type":"text"}],"id":"msg_2","model":"scripted","role":"assistant","stop_reason":"end_turn","stop_sequence":null,"type":"message","usage":{"input_tokens":1,"output_tokens":1}}`},
		{"/chat/completions",
			`{"choices":[{"finish_reason":"tool_calls","index":0,"message":{"content":"Looking.","role":"assistant","tool_calls":[{"function":{"arguments":"{\"query\":\"weather\"}","name":"ToolSearch"},"id":"call_1","type":"function"},{"function":{"arguments":"{}","name":"get_time"},"id":"mine","type":"function"}]}}],"created":1,"id":"chatcmpl_1","model":"scripted","object":"chat.completion"}`,
			`{"choices":[{"finish_reason":"stop","index":0,"message":{"content":"Sunny.","role":"assistant"}}],"created":1,"id":"chatcmpl_2","model":"scripted","object":"chat.completion"}`},
		{"/v1/responses",
			`{"created_at":1,"id":"resp_1","model":"scripted","object":"response","output":[{"content":[{"annotations":[],"text":"Looking.","type":"output_text"}],"id":"msg_1","role":"assistant","status":"completed","type":"message"},{"arguments":{"query":"weather"},"call_id":"call_1","execution":"client","id":"ts_call_1","status":"completed","type":"tool_search_call"},{"arguments":"{}","call_id":"mine","id":"fc_mine","name":"get_time","status":"completed","type":"function_call"}],"status":"completed"}`,
			`{"created_at":1,"id":"resp_2","model":"scripted","object":"response","output":[{"content":[{"annotations":[],"text":"Sunny.","type":"output_text"}],"id":"msg_2","role":"assistant","status":"completed","type":"message"}],"status":"completed"}`},
	} {
		t.Run(tt.path, func(t *testing.T) {
			model := toolsearchtest.NewServer(turns...)
			defer model.Close()
			code, body := post(t, model.URL+tt.path, `{"n":1}`)
			assert.Equal(t, http.StatusOK, code)
			assert.JSONEq(t, tt.first, body)
			_, body = post(t, model.URL+tt.path, `{"n":2}`)
			assert.JSONEq(t, tt.last, body)
			code, body = post(t, model.URL+tt.path, `{"n":3}`)
			assert.Equal(t, http.StatusBadRequest, code)
			assert.Contains(t, body, "request 3 is beyond the script of 2 turns")
			reqs := model.Requests()
			require.Len(t, reqs, 3)
			assert.Equal(t, toolsearchtest.Request{Method: "POST", Path: tt.path, Body: []byte(`{"n":2}`)}, reqs[1])
		})
	}
}

func TestRawAndBadTurns(t *testing.T) {
	model := toolsearchtest.NewServer(toolsearchtest.Raw(`{"exact":true}`), toolsearchtest.ToolCall("x", `[1]`), toolsearchtest.Text("a"))
	defer model.Close()
	_, body := post(t, model.URL+"/anything", "")
	assert.Equal(t, `{"exact":true}`, body, "a raw body is sent as is, for any path")
	code, body := post(t, model.URL+"/v1/messages", "")
	assert.Equal(t, http.StatusInternalServerError, code)
	assert.Contains(t, body, "turn 2: the input of call 1 (x) is not a JSON object")
	code, body = post(t, model.URL+"/v1/embeddings", "")
	assert.Equal(t, http.StatusNotFound, code)
	assert.Contains(t, body, "no API at /v1/embeddings")
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "turn1.json")
	toolsearchtest.GoldenJSON(t, path, []byte(`{"a":[1,2]}`), true)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n", string(b))
	toolsearchtest.GoldenJSON(t, path, []byte(`{"a": [1, 2]}`), false) // the same JSON, spaced otherwise

	var fake testing.T
	ran := make(chan struct{})
	go func() { // a failing comparison ends its goroutine (Fatal) or marks the test failed (Error)
		defer close(ran)
		toolsearchtest.Golden(&fake, path, []byte("other"), false)
	}()
	<-ran
	assert.True(t, fake.Failed(), "a difference fails the test")
}
