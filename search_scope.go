package toolsearch

import (
	"slices"
	"strings"
)

// serversIn returns the servers of list (sorted, from snap) that the scope
// may hold a tool of: all of them for a "*" scope with IncludeDeferred;
// otherwise those that a name of Allow belongs to, as the server of the
// registered tool of that name or, for a name no tool has yet, by its MCP
// prefix (mcp__<server>__). A scoped Searcher names no other server, and
// a Session offers ToolSearch for no other pending server, so that the
// servers outside a scope are as unknown to it as their tools.
func (sc *Scope) serversIn(snap *snapshot, list []string) []string {
	if len(list) == 0 || sc.IncludeDeferred && slices.Contains(sc.Allow, "*") {
		return list
	}
	var out []string
	for _, srv := range list {
		prefix := "mcp__" + mcpServerPart(srv) + "__"
		if slices.ContainsFunc(sc.Allow, func(n string) bool {
			if e := snap.all.get(n); e != nil {
				return e.tool.Server == srv
			}
			return strings.HasPrefix(n, prefix)
		}) {
			out = append(out, srv)
		}
	}
	return out
}

// pendingServers returns the pending servers the Searcher may see (all of
// them without a scope; see Scope.serversIn), sorted. The slice is shared.
// Its cost is the pending servers' and the scope's, not the registry's.
func (s *Searcher) pendingServers(snap *snapshot) []string {
	if s.opts.Scope == nil || len(snap.pending) == 0 {
		return snap.pending
	}
	return s.opts.Scope.serversIn(snap, snap.pending)
}

// anyDeferred reports whether the Searcher sees a deferred tool in snap;
// through a scope, by looking up the names it allows, so that the cost is
// the scope's, not the registry's.
func (s *Searcher) anyDeferred(snap *snapshot) bool {
	sc := s.opts.Scope
	if sc == nil || sc.IncludeDeferred && slices.Contains(sc.Allow, "*") {
		return snap.deferred.Len() > 0
	}
	for _, n := range sc.Allow {
		if e := snap.named(n); e != nil && e.deferred {
			return true // a deferred tool is in scope by its name
		}
	}
	return false
}
