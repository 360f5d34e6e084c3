package tseino

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
	orderedmap "github.com/wk8/go-ordered-map/v2"
)

// orderParams is a params map with objects in arrays in objects, enums,
// required flags and descriptions.
func orderParams() map[string]*schema.ParameterInfo {
	return map[string]*schema.ParameterInfo{
		"order": {Type: schema.Object, Desc: "The order to place", Required: true, SubParams: map[string]*schema.ParameterInfo{
			"lines": {Type: schema.Array, Desc: "One entry per product", Required: true, ElemInfo: &schema.ParameterInfo{
				Type: schema.Object, SubParams: map[string]*schema.ParameterInfo{
					"sku":     {Type: schema.String, Desc: "Product code", Required: true},
					"qty":     {Type: schema.Integer, Required: true},
					"options": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String, Enum: []string{"gift_wrap", "express"}}},
				}}},
			"shipping": {Type: schema.Object, SubParams: map[string]*schema.ParameterInfo{
				"method": {Type: schema.String, Enum: []string{"standard", "overnight"}, Required: true},
				"notes":  {Type: schema.String, Desc: "Free text for the courier"},
			}},
		}},
		"dry_run": {Type: schema.Boolean, Desc: "Validate only"},
	}
}

// orderSchema is what eino's model components send for orderParams.
const orderSchema = `{"type":"object","properties":{
  "dry_run":{"type":"boolean","description":"Validate only"},
  "order":{"type":"object","description":"The order to place","properties":{
    "lines":{"type":"array","description":"One entry per product","items":{"type":"object","properties":{
      "options":{"type":"array","items":{"type":"string","enum":["gift_wrap","express"]}},
      "qty":{"type":"integer"},
      "sku":{"type":"string","description":"Product code"}},"required":["qty","sku"]}},
    "shipping":{"type":"object","properties":{
      "method":{"type":"string","enum":["standard","overnight"]},
      "notes":{"type":"string","description":"Free text for the courier"}},"required":["method"]}},
    "required":["lines"]}},
  "required":["order"]}`

func TestToolFromParams(t *testing.T) {
	info := &schema.ToolInfo{Name: "place_order", Desc: "Place an order", ParamsOneOf: schema.NewParamsOneOfByParams(orderParams())}
	tool, err := Tool(info)
	require.NoError(t, err)
	assert.Equal(t, "place_order", tool.Name)
	assert.Equal(t, "Place an order", tool.Description)
	assert.JSONEq(t, orderSchema, string(tool.InputSchema))

	// The schema is the one eino itself derives from the params map.
	js, err := info.ToJSONSchema()
	require.NoError(t, err)
	want, err := json.Marshal(js)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(tool.InputSchema), "byte for byte what eino sends")

	// A registry accepts it, and a search returns it with that schema.
	tool.ShouldDefer = true
	reg, err := toolsearch.NewRegistry(nil, tool)
	require.NoError(t, err)
	res, err := toolsearch.NewSearcher(reg, nil).Search("select:place_order", 5)
	require.NoError(t, err)
	require.Len(t, res.Matches, 1)
	assert.JSONEq(t, orderSchema, string(res.Matches[0].Schema))
}

func TestToolRoundTripFromParams(t *testing.T) {
	info := &schema.ToolInfo{Name: "place_order", Desc: "Place an order", ParamsOneOf: schema.NewParamsOneOfByParams(orderParams())}
	tool, err := Tool(info)
	require.NoError(t, err)
	back, err := ToolInfo(toolsearch.ToolDefinition{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema})
	require.NoError(t, err)
	assert.Equal(t, info.Name, back.Name)
	assert.Equal(t, info.Desc, back.Desc)
	js, err := back.ToJSONSchema()
	require.NoError(t, err)
	got, err := json.Marshal(js)
	require.NoError(t, err)
	assert.Equal(t, string(tool.InputSchema), string(got), "eino → toolsearch → eino sends the same schema")
	again, err := Tool(back)
	require.NoError(t, err)
	assert.Equal(t, string(tool.InputSchema), string(again.InputSchema))
}

func TestToolFromJSONSchemaForm(t *testing.T) {
	props := orderedmap.New[string, *jsonschema.Schema]()
	props.Set("city", &jsonschema.Schema{Type: "string", Description: "City name"})
	props.Set("days", &jsonschema.Schema{Type: "integer", Minimum: "1", Maximum: "14"})
	info := &schema.ToolInfo{Name: "forecast", Desc: "Weather forecast", ParamsOneOf: schema.NewParamsOneOfByJSONSchema(
		&jsonschema.Schema{Type: "object", Properties: props, Required: []string{"city"}})}
	tool, err := Tool(info)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer","minimum":1,"maximum":14}},"required":["city"]}`, string(tool.InputSchema))
	js, err := info.ToJSONSchema()
	require.NoError(t, err)
	want, err := json.Marshal(js)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(tool.InputSchema), "byte for byte what eino sends")
}

func TestToolWithoutParams(t *testing.T) {
	tool, err := Tool(&schema.ToolInfo{Name: "now", Desc: "Current time"})
	require.NoError(t, err)
	assert.Empty(t, tool.InputSchema, "no parameters: the registry's default object schema applies")
	tool, err = Tool(&schema.ToolInfo{Name: "now", ParamsOneOf: schema.NewParamsOneOfByJSONSchema(nil)})
	require.NoError(t, err)
	assert.Empty(t, tool.InputSchema)
}

func TestToolErrors(t *testing.T) {
	tests := []struct {
		name   string
		info   *schema.ToolInfo
		errMsg string
	}{
		{"nil info", nil, "the tool info is nil"},
		{"nil parameter", &schema.ToolInfo{Name: "t", ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{"a": nil})},
			`tool "t": tseino: parameters cannot be converted: parameter "a" is nil`},
		{"bad type deep inside", &schema.ToolInfo{Name: "t", ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"a": {Type: schema.Object, SubParams: map[string]*schema.ParameterInfo{
				"b": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: "str"}}}}})},
			`parameter "a.b[]" has type "str", not one of object, number, integer, string, array, null, boolean`},
		{"missing type", &schema.ToolInfo{Name: "t", ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{"a": {Desc: "x"}})},
			`parameter "a" has type ""`},
		{"nil element", &schema.ToolInfo{Name: "t", ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"a": {Type: schema.Object, SubParams: map[string]*schema.ParameterInfo{"b": nil}}})},
			`parameter "a.b" is nil`},
		{"type and type list both set", &schema.ToolInfo{Name: "t", ParamsOneOf: schema.NewParamsOneOfByJSONSchema(
			&jsonschema.Schema{Type: "object", TypeEnhanced: []string{"object", "null"}})}, `tool "t": tseino: parameters cannot be converted`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Tool(tt.info)
			require.ErrorIs(t, err, ErrSchema, "Tool(%s)", tt.name)
			assert.ErrorContains(t, err, tt.errMsg)
		})
	}
}

// Schemas that eino's JSON Schema type holds only partly still convert
// with nothing lost.
func TestToolInfoRoundTrip(t *testing.T) {
	tests := []struct{ name, schema string }{
		{"nested objects in arrays in objects", orderSchema},
		{"property order kept", `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"},"mid":{"type":"object","properties":{"y":{},"x":{}}}}}`},
		{"draft-07 definitions and $ref", `{"type":"object","properties":{"addr":{"$ref":"#/definitions/Address"}},"definitions":{"Address":{"type":"object","properties":{"street":{"type":"string"}},"required":["street"]}}}`},
		{"2020-12 $defs", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"integer","minimum":0}}}`},
		{"tuple items (array form)", `{"type":"object","properties":{"point":{"type":"array","items":[{"type":"number"},{"type":"number"}],"additionalItems":false}}}`},
		{"draft-04 boolean exclusiveMaximum", `{"type":"object","properties":{"p":{"type":"number","maximum":1,"exclusiveMaximum":true}}}`},
		{"empty and false keywords", `{"type":"object","required":[],"properties":{"a":{"type":"string","description":"","uniqueItems":false,"pattern":""}},"additionalProperties":false}`},
		{"empty subschemas", `{"type":"object","properties":{"anything":{},"list":{"type":"array","items":{}}}}`},
		{"type lists and null", `{"type":"object","properties":{"n":{"type":["string","null"],"default":null,"const":null}}}`},
		{"numbers as written", `{"type":"object","properties":{"big":{"type":"integer","enum":[9007199254740993,1.50,1e3],"maximum":9007199254740993,"multipleOf":0.1}}}`},
		{"combinators", `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"object","properties":{"k":{"oneOf":[{"const":1},{"const":"one"}]}}}],"not":{"enum":["x"]}}},"allOf":[{"if":{"required":["a"]},"then":{"required":["b"]},"else":true}]}`},
		{"vendor extensions", `{"type":"object","x-order":3,"properties":{"a":{"type":"string","x-ui":{"widget":"textarea"},"nullable":true}},"dependencies":{"a":["b"]}}`},
		{"unicode", `{"type":"object","properties":{"città":{"type":"string","description":"Nome della città — e.g. \"Roma\" <b>"}}}`},
		{"maps of schemas", `{"type":"object","patternProperties":{"^x-":{"type":"string"}},"dependentSchemas":{"a":{"required":["b"]}},"dependentRequired":{"c":["d"]},"propertyNames":{"maxLength":8}}`},
		{"empty root", `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := ToolInfo(toolsearch.ToolDefinition{Name: "t", Description: "d", InputSchema: json.RawMessage(tt.schema)})
			require.NoError(t, err, "ToolInfo(%s)", tt.schema)
			js, err := info.ToJSONSchema()
			require.NoError(t, err)
			sent, err := json.Marshal(js)
			require.NoError(t, err)
			want, err := decodeJSON([]byte(tt.schema))
			require.NoError(t, err)
			got, err := decodeJSON(sent)
			require.NoError(t, err)
			assert.True(t, equalJSON(want, got), "eino sends\n%s\nfor\n%s", sent, tt.schema)

			back, err := Tool(info)
			require.NoError(t, err)
			assert.Equal(t, string(sent), string(back.InputSchema), "toolsearch → eino → toolsearch")
		})
	}
}

func TestToolInfoKeepsPropertyOrder(t *testing.T) {
	info, err := ToolInfo(toolsearch.ToolDefinition{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}}}`)})
	require.NoError(t, err)
	js, err := info.ToJSONSchema()
	require.NoError(t, err)
	b, err := json.Marshal(js)
	require.NoError(t, err)
	assert.Equal(t, `{"properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}},"type":"object"}`, string(b))
}

func TestToolInfoTypedFields(t *testing.T) {
	// Keywords eino's type has a field for land in that field, so eino code
	// that reads them (model components that map schemas to their own
	// types) sees them.
	info, err := ToolInfo(toolsearch.ToolDefinition{Name: "t", InputSchema: json.RawMessage(orderSchema)})
	require.NoError(t, err)
	js, err := info.ToJSONSchema()
	require.NoError(t, err)
	assert.Equal(t, "object", js.Type)
	assert.Equal(t, []string{"order"}, js.Required)
	order, ok := js.Properties.Get("order")
	require.True(t, ok)
	lines, ok := order.Properties.Get("lines")
	require.True(t, ok)
	require.NotNil(t, lines.Items)
	sku, ok := lines.Items.Properties.Get("sku")
	require.True(t, ok)
	assert.Equal(t, "Product code", sku.Description)
	assert.Empty(t, js.Extras)
}

func TestToolInfoEmptySchema(t *testing.T) {
	info, err := ToolInfo(toolsearch.ToolDefinition{Name: "now", Description: "Current time"})
	require.NoError(t, err)
	js, err := info.ToJSONSchema()
	require.NoError(t, err)
	b, err := json.Marshal(js)
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object"}`, string(b))
}

func TestToolInfoErrors(t *testing.T) {
	tests := []struct{ name, schema, errMsg string }{
		{"not JSON", `{"type":`, "the input schema is not JSON"},
		{"trailing data", `{"type":"object"} {}`, "the input schema is not JSON"},
		{"array root", `[{"type":"object"}]`, "the input schema is an array, not a JSON object"},
		{"boolean root", `true`, "the input schema is a boolean, not a JSON object"},
		{"string root", `"object"`, "the input schema is a string, not a JSON object"},
		{"null root", `null`, "the input schema is null, not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ToolInfo(toolsearch.ToolDefinition{Name: "bad", InputSchema: json.RawMessage(tt.schema)})
			require.ErrorIs(t, err, ErrSchema, "ToolInfo(%s)", tt.schema)
			assert.ErrorContains(t, err, `tool "bad": `+ErrSchema.Error()+": "+tt.errMsg)
		})
	}
}

func TestEqualJSON(t *testing.T) {
	dec := func(s string) any {
		v, err := decodeJSON([]byte(s))
		require.NoError(t, err)
		return v
	}
	assert.True(t, equalJSON(dec(`{"a":[1,1.0,1e0]}`), dec(`{"a":[1e0,1,1.00]}`)))
	assert.False(t, equalJSON(dec(`9007199254740993`), dec(`9007199254740992`)), "numbers compare exactly")
	assert.False(t, equalJSON(dec(`{"a":1}`), dec(`{"a":1,"b":2}`)))
	assert.False(t, equalJSON(dec(`{}`), dec(`true`)))
	assert.False(t, equalJSON(dec(`[1]`), dec(`[1,2]`)))
}

// infoTool is an eino tool that only describes itself.
type infoTool struct {
	info *schema.ToolInfo
	err  error
}

func (t infoTool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, t.err }
