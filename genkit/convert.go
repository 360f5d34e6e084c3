package tsgenkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/toolsearch/toolsearch"
)

// ErrSchema is returned (wrapped, with the tool's name and where in the
// schema) for a tool whose input schema cannot be converted between
// Genkit's ai.ToolDefinition and toolsearch.
var ErrSchema = errors.New("tsgenkit: input schema cannot be converted")

// Tool converts a Genkit tool definition (ai.Tool's Definition) into a
// toolsearch.Tool: its name, description and input schema encoded as JSON
// (Genkit holds it as a map, so members come out sorted by name). A nil
// InputSchema gives an empty one (the registry reads it as
// {"type":"object"}). The returned Tool is not deferred: set ShouldDefer
// (New does, for Options.DynamicTools) to defer it. OutputSchema and
// Metadata have no counterpart and are not carried over.
//
// A schema holding a value JSON cannot encode (NaN, a channel) is an error
// wrapping ErrSchema.
func Tool(def *ai.ToolDefinition) (toolsearch.Tool, error) {
	if def == nil {
		return toolsearch.Tool{}, fmt.Errorf("%w: the tool definition is nil", ErrSchema)
	}
	t := toolsearch.Tool{Name: def.Name, Description: def.Description}
	if def.InputSchema == nil {
		return t, nil
	}
	b, err := json.Marshal(def.InputSchema)
	if err != nil {
		return toolsearch.Tool{}, fmt.Errorf("tool %q: %w: %v", def.Name, ErrSchema, err)
	}
	t.InputSchema = b
	return t, nil
}

// ToolDefinition converts a tool definition produced by toolsearch (a
// Session's tools, ToolSearch, an MCP tool) into a Genkit
// ai.ToolDefinition whose InputSchema is the schema decoded the way Genkit
// decodes its own (numbers as float64). An empty input schema gives
// {"type":"object"}.
//
// A schema that is not JSON, whose root is not a JSON object, or that
// holds a number a float64 cannot hold exactly (9007199254740993, 1e400)
// is an error wrapping ErrSchema; the error gives the number's place as a
// JSON pointer.
func ToolDefinition(d toolsearch.ToolDefinition) (*ai.ToolDefinition, error) {
	raw := d.InputSchema
	if len(raw) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("data after the JSON value")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w: the input schema is not JSON: %v", d.Name, ErrSchema, err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("tool %q: %w: the input schema is %s, not a JSON object", d.Name, ErrSchema, kind(v))
	}
	v, err = floats(v, "")
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w: %v", d.Name, ErrSchema, err)
	}
	return &ai.ToolDefinition{Name: d.Name, Description: d.Description, InputSchema: v.(map[string]any)}, nil
}

// floats replaces the json.Numbers in v by float64s, failing for a number
// a float64 would change.
func floats(v any, ptr string) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			f, err := floats(x, ptr+"/"+pointerEscape(k))
			if err != nil {
				return nil, err
			}
			v[k] = f
		}
	case []any:
		for i, x := range v {
			f, err := floats(x, ptr+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			v[i] = f
		}
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		exact, _ := new(big.Rat).SetString(string(v))
		held, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
		if err != nil || exact == nil || held == nil || exact.Cmp(held) != 0 {
			return nil, fmt.Errorf("the number %s at %q cannot be held exactly by a float64, which Genkit's schema maps use", v, ptr)
		}
		return f, nil
	}
	return v, nil
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}
