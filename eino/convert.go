package tseino

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cloudwego/eino/schema"
	"github.com/toolsearch/toolsearch"
)

// ErrSchema is returned (wrapped, with the tool's name and where in the
// schema) for a tool whose parameters cannot be converted between eino's
// schema.ToolInfo and a JSON Schema.
var ErrSchema = errors.New("tseino: parameters cannot be converted")

// Tool converts an eino tool description into a toolsearch.Tool: its name,
// description and parameters as a JSON Schema, which is what eino's model
// components send for it (schema.ParamsOneOf.ToJSONSchema, encoded). A nil
// ParamsOneOf gives an empty InputSchema (the registry reads it as
// {"type":"object"}). The returned Tool is not deferred: set ShouldDefer (or
// use the middleware, which does) to defer it. info.Extra has no
// counterpart and is not carried over.
//
// A parameter given by eino's params map that is nil or whose Type is not
// one of eino's data types (object, number, integer, string, array, null,
// boolean) is an error wrapping ErrSchema that names the parameter's path
// ("a", "a.b", "a[]" for an array's elements).
func Tool(info *schema.ToolInfo) (toolsearch.Tool, error) {
	if info == nil {
		return toolsearch.Tool{}, fmt.Errorf("%w: the tool info is nil", ErrSchema)
	}
	t := toolsearch.Tool{Name: info.Name, Description: info.Desc}
	if info.ParamsOneOf == nil {
		return t, nil
	}
	if err := checkParams(info); err != nil {
		return toolsearch.Tool{}, fmt.Errorf("tool %q: %w", info.Name, err)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		return toolsearch.Tool{}, fmt.Errorf("tool %q: %w: %v", info.Name, ErrSchema, err)
	}
	if js == nil { // NewParamsOneOfByJSONSchema(nil): no parameters
		return t, nil
	}
	b, err := json.Marshal(js)
	if err != nil {
		return toolsearch.Tool{}, fmt.Errorf("tool %q: %w: %v", info.Name, ErrSchema, err)
	}
	t.InputSchema = b
	return t, nil
}

// ToolInfo converts a tool definition produced by toolsearch (a
// Session's tools, the ToolSearch tool, an MCP tool) into an eino
// schema.ToolInfo whose parameters are the definition's input schema,
// held by schema.NewParamsOneOfByJSONSchema. Every keyword of the schema
// is kept: keywords that eino's JSON Schema type has no field for (such
// as draft-07 "definitions" or "x-" extensions), and values its fields
// cannot hold exactly, travel in the schema's Extras, so that the schema
// eino's model components send equals the input as JSON. An empty input
// schema gives {"type":"object"}.
//
// A schema that is not JSON, or whose root is not a JSON object, is an
// error wrapping ErrSchema.
func ToolInfo(d toolsearch.ToolDefinition) (*schema.ToolInfo, error) {
	raw := d.InputSchema
	if len(raw) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	js, err := jsonSchema(raw)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w", d.Name, err)
	}
	return &schema.ToolInfo{Name: d.Name, Desc: d.Description, ParamsOneOf: schema.NewParamsOneOfByJSONSchema(js)}, nil
}

// dataTypes are the types eino's params map accepts.
var dataTypes = []schema.DataType{schema.Object, schema.Number, schema.Integer, schema.String, schema.Array, schema.Null, schema.Boolean}

// checkParams checks the params map of info, if that is the form it uses,
// for what eino's own conversion would panic on or emit as an invalid
// schema. The map is unexported; ToolInfo's JSON encoding carries it.
func checkParams(info *schema.ToolInfo) error {
	b, err := json.Marshal(info)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	var enc struct {
		Params map[string]*schema.ParameterInfo `json:"params"`
	}
	if err := json.Unmarshal(b, &enc); err != nil {
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	return checkParamMap("", enc.Params)
}

func checkParamMap(prefix string, params map[string]*schema.ParameterInfo) error {
	for _, name := range sortedKeys(params) {
		if err := checkParam(prefix+name, params[name]); err != nil {
			return err
		}
	}
	return nil
}

func checkParam(path string, p *schema.ParameterInfo) error {
	if p == nil {
		return fmt.Errorf("%w: parameter %q is nil", ErrSchema, path)
	}
	if !slices.Contains(dataTypes, p.Type) {
		names := make([]string, len(dataTypes))
		for i, t := range dataTypes {
			names[i] = string(t)
		}
		return fmt.Errorf("%w: parameter %q has type %q, not one of %s", ErrSchema, path, p.Type, strings.Join(names, ", "))
	}
	if p.ElemInfo != nil {
		if err := checkParam(path+"[]", p.ElemInfo); err != nil {
			return err
		}
	}
	return checkParamMap(path+".", p.SubParams)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
