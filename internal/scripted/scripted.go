// Package scripted is an HTTP server that plays a model: it answers each
// request with the next canned response and records the request bodies,
// so that tests and examples can drive a real provider SDK client without
// a network or a key.
package scripted

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// Model is a scripted model server. Close it when done.
type Model struct {
	*httptest.Server
	mu        sync.Mutex
	responses []string
	requests  []Request
}

// Request is one request the server received.
type Request struct {
	Method, Path string
	Body         []byte
}

// New starts a Model that answers the i-th request with responses[i] (a
// JSON body, status 200). Requests beyond the script get status 500.
func New(responses ...string) *Model {
	m := &Model{responses: responses}
	m.Server = httptest.NewServer(http.HandlerFunc(m.serve))
	return m
}

func (m *Model) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	i := len(m.requests)
	m.requests = append(m.requests, Request{Method: r.Method, Path: r.URL.Path, Body: body})
	m.mu.Unlock()
	if i >= len(m.responses) {
		http.Error(w, fmt.Sprintf(`{"error":{"type":"scripted","message":"request %d is beyond the script of %d"}}`, i+1, len(m.responses)), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, m.responses[i])
}

// Requests returns the requests received so far.
func (m *Model) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.requests...)
}
