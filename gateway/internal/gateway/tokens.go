package gateway

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/toolsearch/toolsearch"
)

// Token is one bearer token of a tokens file and the tools it may reach.
type Token struct {
	// Name names the agent or team in the log and in the metrics; it is
	// also the session's owner: a session is only served to the token
	// that opened it.
	Name string `json:"name"`
	// Token is the secret; TokenEnv, instead, names the environment
	// variable that holds it.
	Token    string `json:"token,omitempty"`
	TokenEnv string `json:"tokenEnv,omitempty"`
	// Allow lists the tool names (mcp__server__tool) the token's sessions
	// see, search and call; "*" stands for every tool.
	Allow []string `json:"allow"`
}

// Tokens are the bearer tokens the HTTP listener accepts.
type Tokens struct {
	byHash map[[32]byte]*Token
}

// LoadTokens reads a tokens file: {"tokens": [{"name", "token" or
// "tokenEnv", "allow": [...]}, ...]}. Every entry needs a unique name, a
// secret (an environment variable named by tokenEnv must be set) of at
// least 16 bytes, and a non-empty allow-list.
func LoadTokens(path string) (*Tokens, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokens: %w", err)
	}
	var raw struct {
		Tokens []Token `json:"tokens"`
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&raw); err != nil {
		return nil, fmt.Errorf("tokens file %s: %w", path, err)
	}
	if len(raw.Tokens) == 0 {
		return nil, fmt.Errorf(`tokens file %s: no entries in "tokens"`, path)
	}
	ts := &Tokens{byHash: map[[32]byte]*Token{}}
	names := map[string]bool{}
	for i, t := range raw.Tokens {
		where := fmt.Sprintf("tokens file %s: entry %d (%q)", path, i+1, t.Name)
		switch {
		case t.Name == "":
			return nil, fmt.Errorf("%s: no name", where)
		case names[t.Name]:
			return nil, fmt.Errorf("%s: the name is used twice", where)
		case len(t.Allow) == 0:
			return nil, fmt.Errorf(`%s: no "allow" list (use ["*"] for every tool)`, where)
		case t.Token != "" && t.TokenEnv != "":
			return nil, fmt.Errorf(`%s: both "token" and "tokenEnv"`, where)
		}
		if t.TokenEnv != "" {
			t.Token = os.Getenv(t.TokenEnv)
			if t.Token == "" {
				return nil, fmt.Errorf("%s: environment variable %s is not set", where, t.TokenEnv)
			}
		}
		if len(t.Token) < 16 || strings.ContainsAny(t.Token, " \t\r\n") {
			return nil, fmt.Errorf("%s: the token must be at least 16 bytes, without spaces", where)
		}
		h := sha256.Sum256([]byte(t.Token))
		if _, dup := ts.byHash[h]; dup {
			return nil, fmt.Errorf("%s: the same token as another entry", where)
		}
		names[t.Name] = true
		ts.byHash[h] = &t
	}
	return ts, nil
}

// verify is the go-sdk's TokenVerifier over ts: a known token's info names
// it (UserID, which the SDK uses to keep a session to its token).
func (ts *Tokens) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	t := ts.byHash[sha256.Sum256([]byte(token))] // a hash: the lookup says nothing of the secret
	if t == nil {
		return nil, fmt.Errorf("%w: unknown bearer token", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: t.Name, Extra: map[string]any{"token": t}}, nil
}

// scope is the scope of the token in info.
func scopeOf(info *auth.TokenInfo) *toolsearch.Scope {
	if info == nil {
		return nil
	}
	t, _ := info.Extra["token"].(*Token)
	if t == nil {
		return &toolsearch.Scope{} // nothing: cannot happen with verify
	}
	return &toolsearch.Scope{Allow: t.Allow, IncludeDeferred: true}
}
