package toolsearch

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/toolsearch/toolsearch/internal/jsonfast"
)

// The inline rendering of a Result, written by hand: the same bytes as
// json.Marshal, without reflection and without compacting again the
// schemas the registry keeps compact.

// appendJSON appends r as json.Marshal writes it. ok is false when a schema
// is empty but not nil (Marshal refuses it): the caller then uses Marshal.
func (r *Result) appendJSON(b []byte) (_ []byte, ok bool) {
	b = append(b, `{"matches":`...)
	if r.Matches == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Matches {
			m := &r.Matches[i]
			if i > 0 {
				b = append(b, ',')
			}
			var src *lazyData // what the match's tool knows of its texts
			if m.src != nil {
				src = m.src.lazyData.Load()
			}
			b = append(b, `{"name":`...)
			if src != nil && src.nameJSON != nil && m.Name == m.src.tool.Name {
				b = append(b, src.nameJSON...)
			} else {
				b = jsonfast.AppendString(b, m.Name)
			}
			b = append(b, `,"description":`...)
			if src != nil && src.descJSON != nil && m.Description == m.src.tool.Description {
				b = append(b, src.descJSON...)
			} else {
				b = jsonfast.AppendString(b, m.Description)
			}
			b = append(b, `,"schema":`...)
			switch {
			case m.Schema == nil:
				b = append(b, "null"...)
			case len(m.Schema) == 0:
				return b, false
			case src != nil && src.plain && len(src.schema) == len(m.Schema) && &src.schema[0] == &m.Schema[0], jsonfast.PlainCompact(m.Schema):
				b = append(b, m.Schema...)
			default: // spaces or characters Marshal escapes: as Marshal does
				s, err := json.Marshal(m.Schema)
				if err != nil {
					return b, false
				}
				b = append(b, s...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"query":`...)
	b = jsonfast.AppendString(b, r.Query)
	b = append(b, `,"total_deferred_tools":`...)
	b = strconv.AppendInt(b, int64(r.TotalDeferredTools), 10)
	if len(r.PendingMCPServers) > 0 {
		b = append(b, `,"pending_mcp_servers":`...)
		b = appendJSONStrings(b, r.PendingMCPServers)
	}
	if len(r.NotFound) > 0 {
		b = append(b, `,"not_found":`...)
		b = appendJSONStrings(b, r.NotFound)
	}
	if len(r.Suggestions) > 0 {
		b = append(b, `,"suggestions":{`...)
		keys := make([]string, 0, len(r.Suggestions))
		for k := range r.Suggestions {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonfast.AppendString(b, k)
			b = append(b, ':')
			b = appendJSONStrings(b, r.Suggestions[k])
		}
		b = append(b, '}')
	}
	if len(r.Notes) > 0 {
		b = append(b, `,"notes":`...)
		b = appendJSONStrings(b, r.Notes)
	}
	return append(b, '}'), true
}

// appendJSONStrings appends l as a JSON array (null when nil).
func appendJSONStrings(b []byte, l []string) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonfast.AppendString(b, s)
	}
	return append(b, ']')
}
