package toolsearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolsearch/toolsearch/internal/jsonfast"
	"github.com/toolsearch/toolsearch/internal/schema"
	"github.com/toolsearch/toolsearch/internal/text"
)

// A tool's input schema as the entry keeps it: loaded (lazily, at most
// once) and compacted for results, and compiled for the call guard. The
// checking itself is package internal/schema's; this file turns its
// refusals into the package's errors.

var defaultSchema = json.RawMessage(`{"type":"object"}`)

// checkSchema is schema.Check with the package's errors (schemaError).
func checkSchema(raw json.RawMessage, lim *schema.Limits) error {
	return schemaError(schema.Check(raw, *lim))
}

// compileSchema is schema.Compile with the package's errors (schemaError).
func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	s, err := schema.Compile(raw)
	return s, schemaError(err)
}

// schemaError returns the error of a schema refused (a *schema.Error):
// one wrapping ErrInvalidSchema and, for a limit, ErrLimit, which says so
// once.
func schemaError(err error) error {
	var se *schema.Error
	if !errors.As(err, &se) {
		return err
	}
	e := errorf(ErrInvalidSchema, "%s", se.Msg)
	if se.Limit {
		return &wrapped{e, ErrLimit}
	}
	return e
}

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
				l.schemaErr = wrapf(err, "load schema of %q", e.tool.Name)
				return
			}
			if !utf8.Valid(raw) {
				raw = json.RawMessage(text.ValidUTF8(string(raw)))
			}
			if err := checkSchema(raw, e.limits()); err != nil {
				l.schemaErr = wrapf(err, "load schema of %q", e.tool.Name)
				return
			}
		}
		if len(raw) == 0 {
			raw = defaultSchema
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil { // validated already
			l.schemaErr = wrapf(errorf(ErrInvalidSchema, "%v", err), "schema of %q", e.tool.Name)
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
func (e *entry) compiledSchema() (*schema.Validator, error) {
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
		l.validator = schema.NewValidator(s)
	})
	return l.validator, l.validatorErr
}
