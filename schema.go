package toolsearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolsearch/toolsearch/internal/jsonfast"
	"github.com/toolsearch/toolsearch/internal/text"
)

// schemaURL is the base URL a tool schema is compiled under. Relative
// references resolve against it and are refused by refuseLoad.
const schemaURL = "toolsearch:///input_schema.json"

// errExternalRef is returned for any document a schema refers to outside
// itself: schemas are inert, they never make the library read a file or
// open a connection.
var errExternalRef = fmt.Errorf("refusing to load an external document: schemas may only use references inside themselves")

func refuseLoad(url string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("%w: %s", errExternalRef, url)
}

// compileSchema compiles raw as a JSON Schema without ever loading an
// external document. A schema that declares no $schema is read as draft
// 2020-12 (the MCP default); if it is invalid there but valid as draft-07 or
// draft-04, dialects MCP servers still emit, it is accepted as such.
func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	if !json.Valid(raw) {
		return nil, fmt.Errorf("%w: not valid JSON", ErrInvalidSchema)
	}
	if b := bytes.TrimLeft(raw, " \t\r\n"); len(b) == 0 || b[0] != '{' {
		return nil, fmt.Errorf("%w: not a JSON object", ErrInvalidSchema)
	}
	var first error
	for _, d := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7, jsonschema.Draft4} {
		c := jsonschema.NewCompiler()
		c.Draft = d
		c.LoadURL = refuseLoad
		if err := c.AddResource(schemaURL, bytes.NewReader(raw)); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
		}
		s, err := compileGuarded(c)
		if err == nil {
			return s, nil
		}
		if first == nil {
			first = err
		}
		if errors.Is(err, errExternalRef) || bytes.Contains(raw, []byte(`"$schema"`)) {
			break // not a dialect problem
		}
	}
	return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, first)
}

// compileGuarded compiles the schema added to c, turning a panic of the
// schema library into an error. The library reads a few keywords its
// metaschema does not describe with unchecked type assertions
// ({"regexProperties":1}), and compiles a reference to a list of property
// names (#/dependencies/x) as if it were a schema: on input from a server,
// that must be a refusal, not a crash.
func compileGuarded(c *jsonschema.Compiler) (s *jsonschema.Schema, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("the schema library failed on it: %v", p)
		}
	}()
	return c.Compile(schemaURL)
}

// checkSchema checks raw against the size and depth limits of lim, then
// compiles it and bounds the work of validating against it. The size and
// depth are checked first, so that an enormous or deeply nested schema is
// never handed to the compiler. A schema the quick check proves valid
// (schemaquick.go) is not compiled here: the library would accept it with
// the same work bound, and compiles it when a call is first checked.
func checkSchema(raw json.RawMessage, lim *RegistryOptions) error {
	if m := lim.MaxSchemaBytes; len(raw) > m {
		return schemaOverLimit("the schema is %d bytes, the limit is %d", len(raw), m)
	}
	if g, ok := quickSchema(raw, lim); ok && schemaWork(g, schemaWorkLevels, lim.MaxSchemaWork) <= lim.MaxSchemaWork {
		return nil // proven valid (schemaquick.go)
	}
	return checkSchemaFull(raw, lim)
}

// checkSchemaFull is checkSchema by the schema library alone, for a schema
// within the size limit: it decides what the quick check leaves, and words
// every refusal.
func checkSchemaFull(raw json.RawMessage, lim *RegistryOptions) error {
	if m := lim.MaxSchemaDepth; jsonDepth(raw, m+1) > m {
		return schemaOverLimit("the schema nests objects and arrays more than %d deep", m)
	}
	if err := checkSchemaNumbers(raw); err != nil {
		return err
	}
	s, err := compileSchema(raw)
	if err != nil {
		return err
	}
	if m := lim.MaxSchemaWork; schemaWork(workGraph(s), schemaWorkLevels, m) > m {
		return schemaOverLimit("validating one value may apply more than %d subschemas: its references fan out", m)
	}
	return nil
}

// checkSchemaNumbers checks the numbers of a schema (see checkNumbers)
// before the compiler reads them. A schema that is not JSON is left to the
// compiler to refuse.
func checkSchemaNumbers(raw json.RawMessage) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	if err := checkNumbers(v); err != nil {
		return schemaOverLimit("%v", err)
	}
	return nil
}

// schemaCache remembers the input schemas that passed checkSchema, byte for
// byte, so that a schema seen before (one shape shared by many tools, a
// server listing its tools again, a Replace) is not checked again, and the
// tools that have it share one copy. Only valid schemas are kept: an invalid
// one is checked every time, so its error is always complete. Validity is a
// function of the bytes and the registry's limits alone, which never
// change, so a hit is as good as a check.
type schemaCache struct {
	mu    sync.Mutex // held briefly, never while compiling
	seed  maphash.Seed
	valid map[uint64][]json.RawMessage
	n     int
}

// forgetIfStale empties the cache when it holds far more schemas than the
// registry's tools (of which there are tools) may have.
func (c *schemaCache) forgetIfStale(tools int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n > 4*tools+4096 {
		c.seed, c.valid, c.n = maphash.Seed{}, nil, 0
	}
}

func (c *schemaCache) find(raw json.RawMessage) (json.RawMessage, uint64) {
	if c.valid == nil {
		c.seed = maphash.MakeSeed()
		c.valid = map[uint64][]json.RawMessage{}
	}
	h := maphash.Bytes(c.seed, raw)
	for _, v := range c.valid[h] {
		if bytes.Equal(v, raw) {
			return v, h
		}
	}
	return nil, h
}

func (c *schemaCache) add(h uint64, raw json.RawMessage) json.RawMessage {
	v := slices.Clone(raw)
	c.valid[h] = append(c.valid[h], v)
	c.n++
	return v
}

// parallelSchemas is the number of schemas to compile from which checkSchemas
// spreads the work over GOMAXPROCS goroutines.
const parallelSchemas = 32

// checkSchemas checks the schemas of tools. For each tool it returns the
// schema bytes to keep (shared with other tools that have the same schema)
// and the error for an invalid schema. Schemas not seen before are compiled,
// on several goroutines when there are many, with no lock held.
func (r *Registry) checkSchemas(tools []Tool, lim *RegistryOptions) ([]json.RawMessage, []error) {
	keep := make([]json.RawMessage, len(tools))
	errs := make([]error, len(tools))
	r.schemas.mu.Lock()
	var todo []int              // tools whose schema is compiled: the first of each new schema
	same := map[int]int{}       // tool → the tool in todo with the same new schema
	first := map[uint64][]int{} // hash → tools in todo
	for i := range tools {
		raw := tools[i].InputSchema
		if len(raw) == 0 {
			continue
		}
		var h uint64
		if keep[i], h = r.schemas.find(raw); keep[i] != nil {
			continue
		}
		j := slices.IndexFunc(first[h], func(j int) bool { return bytes.Equal(tools[j].InputSchema, raw) })
		if j >= 0 {
			same[i] = first[h][j]
			continue
		}
		first[h] = append(first[h], i)
		todo = append(todo, i)
	}
	r.schemas.mu.Unlock()
	if len(todo) >= parallelSchemas && runtime.GOMAXPROCS(0) > 1 {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for j := next.Add(1) - 1; j < int64(len(todo)); j = next.Add(1) - 1 {
					i := todo[j]
					errs[i] = checkSchema(tools[i].InputSchema, lim)
				}
			})
		}
		wg.Wait()
	} else {
		for _, i := range todo {
			errs[i] = checkSchema(tools[i].InputSchema, lim)
		}
	}
	r.schemas.mu.Lock()
	for _, i := range todo {
		if errs[i] == nil { // another batch may have added it meanwhile
			v, h := r.schemas.find(tools[i].InputSchema)
			if v == nil {
				v = r.schemas.add(h, tools[i].InputSchema)
			}
			keep[i] = v
		}
	}
	r.schemas.mu.Unlock()
	for i, j := range same {
		keep[i], errs[i] = keep[j], errs[j]
	}
	return keep, errs
}

var defaultSchema = json.RawMessage(`{"type":"object"}`)

// loadSchema returns the tool's input schema as compact JSON. A lazy
// LoadSchema is called at most once; its result is validated like a schema
// given at registration.
func (e *entry) loadSchema() (json.RawMessage, error) {
	l := e.lazy()
	l.schemaOnce.Do(func() {
		raw := e.tool.InputSchema
		if len(raw) == 0 && e.tool.LoadSchema != nil {
			var err error
			if raw, err = e.tool.LoadSchema(); err != nil {
				l.schemaErr = fmt.Errorf("load schema of %q: %w", e.tool.Name, err)
				return
			}
			if !utf8.Valid(raw) {
				raw = json.RawMessage(text.ValidUTF8(string(raw)))
			}
			if err := checkSchema(raw, e.limits()); err != nil {
				l.schemaErr = fmt.Errorf("load schema of %q: %w", e.tool.Name, err)
				return
			}
		}
		if len(raw) == 0 {
			raw = defaultSchema
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil { // validated already
			l.schemaErr = fmt.Errorf("schema of %q: %w: %v", e.tool.Name, ErrInvalidSchema, err)
			return
		}
		l.schema = buf.Bytes()
		l.plain = jsonfast.PlainCompact(l.schema)
		l.nameJSON, l.descJSON = jsonfast.AppendString(nil, e.tool.Name), jsonfast.AppendString(nil, e.tool.Description)
	})
	return l.schema, l.schemaErr
}

// compiledSchema returns the tool's input schema compiled for validation,
// compiled once per entry (so once per tool definition, for every
// Session).
func (e *entry) compiledSchema() (*callValidator, error) {
	l := e.lazy()
	l.validatorOnce.Do(func() {
		raw, err := e.loadSchema()
		if err != nil {
			l.validatorErr = err
			return
		}
		s, err := compileSchema(raw)
		if err != nil {
			l.validatorErr = err
			return
		}
		l.validator = newCallValidator(s)
	})
	return l.validator, l.validatorErr
}

// decodeArgs decodes one JSON value for validation (numbers kept exact)
// and returns it with its compact form. Empty input means {}.
func decodeArgs(args json.RawMessage) (any, json.RawMessage, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return map[string]any{}, json.RawMessage(`{}`), nil
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, args); err != nil { // also refuses trailing data
		return nil, nil, err
	}
	compact := buf.Bytes()
	if !utf8.Valid(compact) {
		compact = []byte(text.ValidUTF8(string(compact))) // as the decoder read them
	}
	return v, compact, nil
}

// jsonDepth returns the deepest nesting of objects and arrays in the valid
// JSON text raw, stopping as soon as it reaches upTo.
func jsonDepth(raw []byte, upTo int) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > deepest {
				if deepest = depth; deepest >= upTo {
					return deepest
				}
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// argumentTexts returns the argument names and descriptions of an input
// schema: the keys of every "properties" object and the "description" of
// every property, nested ones included, keys sorted at each level. A schema that
// does not decode gives none.
func argumentTexts(schema json.RawMessage) (names, descs []string) {
	if len(schema) == 0 {
		return nil, nil
	}
	var root any
	if json.Unmarshal(schema, &root) != nil {
		return nil, nil
	}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 32 {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				keys := make([]string, 0, len(props))
				for k := range props {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for _, k := range keys {
					names = append(names, k)
					if p, ok := props[k].(map[string]any); ok {
						if d, ok := p["description"].(string); ok && d != "" {
							descs = append(descs, d)
						}
					}
				}
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(v[k], depth+1)
			}
		case []any:
			for _, x := range v {
				walk(x, depth+1)
			}
		}
	}
	walk(root, 0)
	return names, descs
}
