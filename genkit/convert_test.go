package tsgenkit

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolsearch/toolsearch"
)

// Objects in arrays in objects, enums, required fields and descriptions,
// as Genkit infers them from Go types.
type (
	orderIn struct {
		Order  order `json:"order" jsonschema:"description=The order to place"`
		DryRun bool  `json:"dry_run,omitempty" jsonschema:"description=Validate only"`
	}
	order struct {
		Lines    []line    `json:"lines" jsonschema:"description=One entry per product"`
		Shipping *shipping `json:"shipping,omitempty"`
	}
	line struct {
		SKU     string   `json:"sku" jsonschema:"description=Product code"`
		Qty     int      `json:"qty"`
		Options []string `json:"options,omitempty" jsonschema:"enum=gift_wrap,enum=express"`
	}
	shipping struct {
		Method string `json:"method" jsonschema:"enum=standard,enum=overnight"`
		Notes  string `json:"notes,omitempty" jsonschema:"description=Free text for the courier"`
	}
)

func orderTool() ai.Tool {
	return ai.NewTool("place_order", "Place an order", func(_ *ai.ToolContext, in orderIn) (string, error) {
		return "placed", nil
	})
}

func TestToolFromGenkitTool(t *testing.T) {
	def := orderTool().Definition()
	tool, err := Tool(def)
	require.NoError(t, err)
	assert.Equal(t, "place_order", tool.Name)
	assert.Equal(t, "Place an order", tool.Description)

	// The nested structure is all there.
	var s struct {
		Properties struct {
			Order struct {
				Description string `json:"description"`
				Properties  struct {
					Lines struct {
						Type  string `json:"type"`
						Items struct {
							Properties struct {
								SKU     map[string]any `json:"sku"`
								Options struct {
									Items struct {
										Enum []string `json:"enum"`
									} `json:"items"`
								} `json:"options"`
							} `json:"properties"`
							Required []string `json:"required"`
						} `json:"items"`
					} `json:"lines"`
					Shipping struct {
						Properties struct {
							Method struct {
								Enum []string `json:"enum"`
							} `json:"method"`
						} `json:"properties"`
						Required []string `json:"required"`
					} `json:"shipping"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"order"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	require.NoError(t, json.Unmarshal(tool.InputSchema, &s), "schema: %s", tool.InputSchema)
	o := s.Properties.Order
	assert.Equal(t, "The order to place", o.Description)
	assert.Equal(t, "array", o.Properties.Lines.Type)
	assert.Equal(t, "Product code", o.Properties.Lines.Items.Properties.SKU["description"])
	assert.Equal(t, []string{"gift_wrap", "express"}, o.Properties.Lines.Items.Properties.Options.Items.Enum)
	assert.ElementsMatch(t, []string{"sku", "qty"}, o.Properties.Lines.Items.Required)
	assert.Equal(t, []string{"standard", "overnight"}, o.Properties.Shipping.Properties.Method.Enum)
	assert.Equal(t, []string{"method"}, o.Properties.Shipping.Required)
	assert.Equal(t, []string{"lines"}, o.Required)
	assert.Equal(t, []string{"order"}, s.Required)

	// A registry accepts it, and a search returns it with that schema.
	tool.ShouldDefer = true
	reg, err := toolsearch.NewRegistry(nil, tool)
	require.NoError(t, err)
	res, err := toolsearch.NewSearcher(reg, nil).Search("select:place_order", 5)
	require.NoError(t, err)
	require.Len(t, res.Matches, 1)
	assert.JSONEq(t, string(tool.InputSchema), string(res.Matches[0].Schema))

	// And back: the definition Genkit would send.
	back, err := ToolDefinition(toolsearch.ToolDefinition{Name: tool.Name, Description: tool.Description, InputSchema: res.Matches[0].Schema})
	require.NoError(t, err)
	assert.Equal(t, def.Name, back.Name)
	assert.Equal(t, def.Description, back.Description)
	assert.Equal(t, def.InputSchema, back.InputSchema, "Genkit → toolsearch → Genkit gives the same schema map")
}

func TestToolWithoutSchema(t *testing.T) {
	tool, err := Tool(&ai.ToolDefinition{Name: "now", Description: "Current time"})
	require.NoError(t, err)
	assert.Empty(t, tool.InputSchema, "no schema: the registry's default object schema applies")
}

func TestToolErrors(t *testing.T) {
	_, err := Tool(nil)
	assert.ErrorIs(t, err, ErrSchema)
	_, err = Tool(&ai.ToolDefinition{Name: "nan", InputSchema: map[string]any{"type": "number", "maximum": math.NaN()}})
	assert.ErrorIs(t, err, ErrSchema)
	assert.ErrorContains(t, err, `tool "nan": tsgenkit: input schema cannot be converted: json: unsupported value: NaN`)
}

func TestToolDefinitionRoundTrip(t *testing.T) {
	tests := []struct{ name, schema string }{
		{"nested objects in arrays in objects", `{"type":"object","properties":{"order":{"type":"object","description":"The order","properties":{"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string","description":"Product code"},"qty":{"type":"integer","minimum":1},"options":{"type":"array","items":{"type":"string","enum":["gift_wrap","express"]}}},"required":["sku","qty"]}}},"required":["lines"]}},"required":["order"]}`},
		{"draft-07 definitions and $ref", `{"type":"object","properties":{"addr":{"$ref":"#/definitions/Address"}},"definitions":{"Address":{"type":"object","properties":{"street":{"type":"string"}}}}}`},
		{"tuple items", `{"type":"object","properties":{"p":{"type":"array","items":[{"type":"number"},{"type":"number"}]}}}`},
		{"numbers a float64 holds", `{"type":"object","properties":{"n":{"type":"number","multipleOf":0.1,"maximum":1e3,"minimum":-1.50,"enum":[9007199254740992,2.5e-3]}}}`},
		{"empty and null", `{"type":"object","required":[],"properties":{"a":{},"b":{"type":["string","null"],"default":null}},"additionalProperties":false}`},
		{"unicode and extensions", `{"type":"object","x-owner":"support","properties":{"città":{"type":"string","description":"Nome — \"Roma\" <b>"}}}`},
		{"empty root", `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def, err := ToolDefinition(toolsearch.ToolDefinition{Name: "t", Description: "d", InputSchema: json.RawMessage(tt.schema)})
			require.NoError(t, err, "ToolDefinition(%s)", tt.schema)
			assert.Equal(t, "t", def.Name)
			assert.Equal(t, "d", def.Description)
			back, err := Tool(def)
			require.NoError(t, err)
			assert.JSONEq(t, tt.schema, string(back.InputSchema), "toolsearch → Genkit → toolsearch")
		})
	}
}

func TestToolDefinitionEmptySchema(t *testing.T) {
	def, err := ToolDefinition(toolsearch.ToolDefinition{Name: "now"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"type": "object"}, def.InputSchema)
}

func TestToolDefinitionErrors(t *testing.T) {
	tests := []struct{ name, schema, errMsg string }{
		{"not JSON", `{"type":`, "the input schema is not JSON"},
		{"trailing data", `{} {}`, "the input schema is not JSON"},
		{"array root", `[]`, "the input schema is an array, not a JSON object"},
		{"boolean root", `true`, "the input schema is a boolean, not a JSON object"},
		{"number root", `1`, "the input schema is a number, not a JSON object"},
		{"integer beyond float64", `{"type":"object","properties":{"id":{"type":"integer","enum":[1,9007199254740993]}}}`,
			`the number 9007199254740993 at "/properties/id/enum/1" cannot be held exactly by a float64`},
		{"out of range", `{"type":"object","properties":{"x/y":{"maximum":1e400}}}`, `the number 1e400 at "/properties/x~1y/maximum"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ToolDefinition(toolsearch.ToolDefinition{Name: "bad", InputSchema: json.RawMessage(tt.schema)})
			require.ErrorIs(t, err, ErrSchema, "ToolDefinition(%s)", tt.schema)
			assert.ErrorContains(t, err, `tool "bad": `+ErrSchema.Error()+": "+tt.errMsg)
		})
	}
}
