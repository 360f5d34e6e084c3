package toolsearch

import (
	"fmt"
	"strconv"
	"strings"
)

// Default limits: what a zero field of Limits means.
const (
	DefaultMaxQueryBytes        = 8192      // bytes in one ToolSearch query
	DefaultMaxQueryTerms        = 32        // whitespace-separated terms in one query
	DefaultMaxSelectNames       = 32        // names looked up by one select: query
	DefaultMaxResultSchemaBytes = 256 << 10 // schema bytes in one Result
	DefaultMaxSchemaBytes       = 64 << 10  // bytes in one tool's input schema
	DefaultMaxSchemaDepth       = 64        // nesting of objects and arrays in one schema
	DefaultMaxDescriptionBytes  = 16 << 10  // bytes in one tool's description
	DefaultMaxSchemaWork        = 10_000    // subschemas applied to one value when validating
)

// Limits bound what untrusted input can make the library do: ToolSearch
// queries come from a model, tool definitions from MCP servers. A zero field
// means its documented default; a negative field is treated as zero. No
// limit is applied silently: a query over a limit is an error (or, for
// select: names and result schemas, a cut named in Result.Notes), and a tool
// over a limit is refused with an error naming it.
//
// The query-side fields are read from SearchOptions.Limits by a Searcher;
// the registration-side fields from the Limits given to Registry.SetLimits.
// Each side ignores the other side's fields. The number of keyword matches
// is bounded by SearchOptions.MaxResultsCap.
type Limits struct {
	// Query side (SearchOptions.Limits).

	// MaxQueryBytes is the longest query answered, in bytes; a longer one
	// is an error wrapping ErrInvalidQuery and ErrLimit. Default
	// DefaultMaxQueryBytes.
	MaxQueryBytes int
	// MaxQueryTerms is the most whitespace-separated terms a query that is
	// not a select: query may have; more is an error wrapping
	// ErrInvalidQuery and ErrLimit. Default DefaultMaxQueryTerms.
	MaxQueryTerms int
	// MaxSelectNames is the most names one select: query looks up. The
	// names after it are not looked up, and a note in Result.Notes lists
	// them. Default DefaultMaxSelectNames.
	MaxSelectNames int
	// MaxResultSchemaBytes is the most schema bytes one Result carries.
	// Matches are taken best first; a match whose schema does not fit in
	// what is left is left out, with a note in Result.Notes naming it and
	// giving the sizes. Default DefaultMaxResultSchemaBytes.
	MaxResultSchemaBytes int

	// Registration side (Registry.SetLimits).

	// MaxSchemaBytes is the largest input schema accepted, in bytes (as
	// given, or as returned by LoadSchema). A larger one is refused with an
	// error wrapping ErrInvalidSchema and ErrLimit. Default
	// DefaultMaxSchemaBytes.
	MaxSchemaBytes int
	// MaxSchemaDepth is the deepest nesting of JSON objects and arrays an
	// input schema may have ({} is depth 1). It is checked before the
	// schema is compiled, so a deep schema costs one scan of its bytes. A
	// deeper one is refused with an error wrapping ErrInvalidSchema and
	// ErrLimit. Default DefaultMaxSchemaDepth.
	MaxSchemaDepth int
	// MaxDescriptionBytes is the longest description accepted, in bytes: it
	// bounds the text every keyword search scans per tool. A longer one is
	// refused with an error wrapping ErrLimit: the description is what the
	// model reads to choose the tool, so cutting it for matching alone
	// would change search results without anyone being told. Default
	// DefaultMaxDescriptionBytes. NewMCPTool already cuts MCP descriptions
	// at MaxMCPDescription characters, visibly.
	MaxDescriptionBytes int
	// MaxSchemaWork bounds the work of validating arguments against an
	// input schema (Session.CheckCall does): the most subschemas that
	// validation may apply to any one value of the arguments, following
	// $ref, allOf, anyOf, oneOf and the like, for arguments nested up to
	// 64 levels. It is computed when the schema is compiled. A schema whose
	// references fan out (a chain of anyOf pairs referring to the next pair
	// costs 2ⁿ, and a recursive one 2 to the power of the arguments' depth)
	// is refused with an error wrapping ErrInvalidSchema and ErrLimit,
	// rather than hang a validation later. Real schemas stay far below the
	// default: at most 13 among the 6,334 schemas of testdata/bench.
	// Default DefaultMaxSchemaWork.
	MaxSchemaWork int
}

// or returns v, or def when v is zero or negative.
func or(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// withDefaults returns l with every zero or negative field set to its
// default.
func (l Limits) withDefaults() Limits {
	return Limits{
		MaxQueryBytes:        or(l.MaxQueryBytes, DefaultMaxQueryBytes),
		MaxQueryTerms:        or(l.MaxQueryTerms, DefaultMaxQueryTerms),
		MaxSelectNames:       or(l.MaxSelectNames, DefaultMaxSelectNames),
		MaxResultSchemaBytes: or(l.MaxResultSchemaBytes, DefaultMaxResultSchemaBytes),
		MaxSchemaBytes:       or(l.MaxSchemaBytes, DefaultMaxSchemaBytes),
		MaxSchemaDepth:       or(l.MaxSchemaDepth, DefaultMaxSchemaDepth),
		MaxDescriptionBytes:  or(l.MaxDescriptionBytes, DefaultMaxDescriptionBytes),
		MaxSchemaWork:        or(l.MaxSchemaWork, DefaultMaxSchemaWork),
	}
}

// SetLimits sets the registration-side limits (MaxSchemaBytes,
// MaxSchemaDepth, MaxSchemaWork, MaxDescriptionBytes) for tools registered from now on,
// lazy schemas of those tools included; tools already registered are not
// checked again. A Registry that was never given limits uses the defaults.
// It is safe to call concurrently with every other method.
func (r *Registry) SetLimits(l Limits) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limits = l.withDefaults()
}

// registryLimits returns the registration-side limits in force. r.mu must
// be held.
func (r *Registry) registryLimits() Limits {
	if r.limits.MaxSchemaBytes == 0 { // never set: the zero Registry
		r.limits = Limits{}.withDefaults()
	}
	return r.limits
}

// checkQuery applies MaxQueryBytes and, to a query that is not a select:
// query, MaxQueryTerms.
func (l *Limits) checkQuery(query string, isSelect bool) error {
	if len(query) > l.MaxQueryBytes {
		return fmt.Errorf("%w: %w: the query is %d bytes long, the limit is %d", ErrInvalidQuery, ErrLimit, len(query), l.MaxQueryBytes)
	}
	if !isSelect {
		if n := countFields(query, l.MaxQueryTerms+1); n > l.MaxQueryTerms {
			return fmt.Errorf("%w: %w: the query has more than %d terms; use fewer, more specific words", ErrInvalidQuery, ErrLimit, l.MaxQueryTerms)
		}
	}
	return nil
}

// cutSelect applies MaxSelectNames to the names of a select: query,
// returning the names to look up and a note naming the others ("" when
// nothing was cut).
func (l *Limits) cutSelect(names []string) ([]string, string) {
	if len(names) <= l.MaxSelectNames {
		return names, ""
	}
	rest := names[l.MaxSelectNames:]
	return names[:l.MaxSelectNames], "select: named " + strconv.Itoa(len(names)) + " tools; the limit is " +
		strconv.Itoa(l.MaxSelectNames) + " a query, so these were not looked up: " + strings.Join(rest, ", ") +
		". Ask for them in another query."
}

// schemaBudget tracks the schema bytes left in one Result.
type schemaBudget struct {
	limit, used int
}

// take reserves n bytes for tool name's schema, or returns a note saying
// why the tool was left out.
func (b *schemaBudget) take(name string, n int) (note string, ok bool) {
	if b.used+n <= b.limit {
		b.used += n
		return "", true
	}
	return name + " was left out: its schema is " + strconv.Itoa(n) + " bytes and this result has " +
		strconv.Itoa(b.limit-b.used) + " of its " + strconv.Itoa(b.limit) +
		" schema bytes left. Select it in a query of its own.", false
}

// checkDescription applies MaxDescriptionBytes (zero: the default).
func (l *Limits) checkDescription(d string) error {
	if m := or(l.MaxDescriptionBytes, DefaultMaxDescriptionBytes); len(d) > m {
		return fmt.Errorf("%w: the description is %d bytes, the limit is %d", ErrLimit, len(d), m)
	}
	return nil
}

const (
	leaf valueKind = iota // no value below it is counted
	object
	array
)
