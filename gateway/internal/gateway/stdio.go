package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one client session over in and out (what a desktop
// client that launched the gateway talks over) until the client goes away
// (in ends) or ctx ends.
//
// It reads from the first byte. While the startup lasts (until every
// upstream's first attempt ended, or StartupWait passed) it answers pings
// itself, and server/discover with the error that sends a client of the
// 2026-07-28 protocol to the initialize handshake; every other message
// waits for the startup, in the order it came: initialize first of all,
// whose answer carries the instructions that name the deferred tools, and
// tools/list and tools/call, which a client sends after it. Over stdio the
// gateway serves the initialize handshake only (protocol versions up to
// 2025-11-25), so that its answer can wait for the servers while the
// client's discovery probe, which clients bound by a few seconds, is
// answered at once. A client that closes in during the startup ends the
// session at once, as it does afterwards.
func (g *Gateway) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	done := make(chan struct{})
	defer close(done)
	lr := &lineReader{in: in, lines: make(chan []byte), done: done}
	go lr.feed()
	held, serve, err := g.early(ctx, lr.lines, out)
	if !serve {
		_ = in.Close()
		return err
	}
	lr.held = held
	s := g.newSession(nil, legacyVersions())
	return s.srv.Run(ctx, &mcp.IOTransport{Reader: lr, Writer: out})
}

// heldMax bounds the bytes held during the startup: past it the gateway
// reads no more until the startup is over (the client's writes wait).
const heldMax = 1 << 20

// early serves the startup: it answers pings and server/discover on out
// and holds every other message (up to heldMax bytes, then it stops
// reading), until the startup is over (then the session is served,
// beginning with what it held), ctx ends, or the client closed its end
// (then it is not: no one would read the answers).
func (g *Gateway) early(ctx context.Context, lines <-chan []byte, out io.Writer) (held [][]byte, serve bool, err error) {
	size := 0
	for {
		select {
		case <-g.startup:
			return held, true, nil
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case line, ok := <-lines:
			if !ok { // the client went away
				return nil, false, nil
			}
			if reply := earlyReply(line); reply != nil {
				if _, err := out.Write(reply); err != nil {
					return nil, false, err
				}
				continue
			}
			held = append(held, line)
			if size += len(line); size >= heldMax {
				lines = nil
			}
		}
	}
}

// earlyReply is the answer to a message read during the startup that does
// not wait for it (a ping or server/discover request), or nil.
func earlyReply(line []byte) []byte {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &msg) != nil || len(msg.ID) == 0 || string(msg.ID) == "null" {
		return nil // not a request: the SDK reads it after the startup
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
	switch msg.Method {
	case "ping":
		resp["result"] = struct{}{}
	case "server/discover":
		resp["error"] = legacyOnly(legacyVersions())
	default:
		return nil
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return nil
	}
	return append(b, '\n')
}

// legacyVersions are the protocol versions of the initialize handshake,
// those a stdio session is served on.
func legacyVersions() []string {
	return slices.DeleteFunc(mcp.SupportedProtocolVersions(), modern)
}

// lineReader reads the client's messages, one a line: first those held
// during the startup, then those read from in afterwards.
type lineReader struct {
	in    io.ReadCloser
	held  [][]byte
	cur   []byte
	lines chan []byte   // closed when in ended
	done  chan struct{} // closed when the session ended
	err   error         // why in ended, if not at its end; set before lines is closed
}

// feed reads in line by line until it ends or the session does. A line is
// bounded as the SDK bounds it.
func (lr *lineReader) feed() {
	defer close(lr.lines)
	br := bufio.NewReader(lr.in)
	for {
		var line []byte
		var err error
		for {
			var part []byte
			part, err = br.ReadSlice('\n')
			if len(line)+len(part) > mcp.DefaultMaxLineLength {
				lr.err = fmt.Errorf("a message longer than %d bytes", mcp.DefaultMaxLineLength)
				return
			}
			line = append(line, part...)
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case lr.lines <- line:
			case <-lr.done:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				lr.err = err
			}
			return
		}
	}
}

// Read reads the messages for the SDK.
func (lr *lineReader) Read(p []byte) (int, error) {
	for len(lr.cur) == 0 {
		if len(lr.held) > 0 {
			lr.cur, lr.held = lr.held[0], lr.held[1:]
			continue
		}
		line, ok := <-lr.lines
		if !ok {
			if lr.err != nil {
				return 0, lr.err
			}
			return 0, io.EOF
		}
		lr.cur = line
	}
	n := copy(p, lr.cur)
	lr.cur = lr.cur[n:]
	return n, nil
}

// Close closes in (the SDK closes its reader when the session ends).
func (lr *lineReader) Close() error { return lr.in.Close() }
