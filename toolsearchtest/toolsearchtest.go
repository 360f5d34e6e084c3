// Package toolsearchtest is a scripted model for testing agent loops
// offline: an HTTP server on localhost (net/http/httptest) that speaks the
// Anthropic Messages API, OpenAI Chat Completions and the OpenAI Responses
// API, answers each request with the next Turn of its script, in the API
// the request was sent to, and records every request body. Point a real SDK
// client at Server.URL (option.WithBaseURL) and run the loop as against
// the provider: no network, no key.
//
//	model := toolsearchtest.NewServer(
//		toolsearchtest.ToolCall("ToolSearch", `{"query":"weather forecast"}`),
//		toolsearchtest.ToolCall("mcp__weather__get_forecast", `{"city":"Paris"}`),
//		toolsearchtest.Text("Sunny, 21°C."),
//	)
//	defer model.Close()
//	client := anthropic.NewClient(option.WithBaseURL(model.URL), option.WithAPIKey("test"))
//
// A Turn renders the same way in the three APIs: its text as the
// assistant's text (a text block, the message content, an output_text
// message), its calls as tool_use blocks, tool_calls or function_call
// items, except that on the Responses API a call of ToolSearch is a
// client-executed tool_search_call, the item a Session-driven loop
// answers. Raw sends a response body as is, for a test that needs an exact
// one.
//
// Golden and GoldenJSON pin what the loop sent, request by request, in
// files refreshed by the test's -update flag.
//
// DemoCatalog gives a realistic catalog of 579 tools to run a loop over.
//
// Besides the embedded catalog, the package uses only the standard library.
package toolsearchtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// A Turn is one answer of the scripted model.
type Turn struct {
	// Text is the model's text, if any.
	Text string
	// Calls are the tools the model calls, in order.
	Calls []Call
	// Raw, if set, is sent as the response body as is (status 200,
	// application/json), whatever the API: Text and Calls are then
	// ignored.
	Raw string
}

// A Call is one tool call of a Turn.
type Call struct {
	// ID is the call's id; empty means one made from the call's place in
	// the script (toolu_1, call_1, ...).
	ID string
	// Name is the tool's name.
	Name string
	// Input is the arguments as a JSON object; empty means {}.
	Input string
}

// Text returns a Turn in which the model answers text and calls nothing.
func Text(text string) Turn { return Turn{Text: text} }

// ToolCall returns a Turn in which the model calls one tool, name, with
// input (a JSON object).
func ToolCall(name, input string) Turn { return Turn{Calls: []Call{{Name: name, Input: input}}} }

// Raw returns a Turn whose response body is body, as is.
func Raw(body string) Turn { return Turn{Raw: body} }

// A Request is one request the server received.
type Request struct {
	Method, Path string
	Body         []byte
}

// Server is a scripted model. It is safe for concurrent use, but a script
// is meant for one conversation at a time. Close it when done.
type Server struct {
	// URL is the base URL to give the SDK client, without a trailing
	// slash (http://127.0.0.1:port).
	URL string

	srv   *httptest.Server
	mu    sync.Mutex
	turns []Turn
	reqs  []Request
	calls int // calls rendered so far, for ids
}

// NewServer starts a Server that answers its i-th request with turns[i].
// A request after the last turn is answered with status 400 and an error
// body saying so.
func NewServer(turns ...Turn) *Server {
	s := &Server{turns: turns}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close shuts the server down.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// The APIs a request can be for, by the end of its path.
const (
	apiAnthropic = "/messages"
	apiChat      = "/chat/completions"
	apiResponses = "/responses"
)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	i := len(s.reqs)
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Body: body})
	var turn Turn
	if i < len(s.turns) {
		turn = s.turns[i]
	}
	first := s.calls
	s.calls += len(turn.Calls)
	s.mu.Unlock()

	fail := func(status int, format string, args ...any) {
		b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": "invalid_request_error", "message": fmt.Sprintf(format, args...)}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(b)
	}
	if i >= len(s.turns) {
		fail(http.StatusBadRequest, "toolsearchtest: request %d is beyond the script of %d turns", i+1, len(s.turns))
		return
	}
	out := []byte(turn.Raw)
	if turn.Raw == "" {
		var api string
		for _, a := range []string{apiAnthropic, apiChat, apiResponses} {
			if strings.HasSuffix(r.URL.Path, a) {
				api = a
			}
		}
		if api == "" {
			fail(http.StatusNotFound, "toolsearchtest: no API at %s (Anthropic Messages, OpenAI Chat Completions and Responses are served)", r.URL.Path)
			return
		}
		out, err = render(api, i+1, first, turn)
		if err != nil {
			fail(http.StatusInternalServerError, "toolsearchtest: turn %d: %v", i+1, err)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}
