package toolsearch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolsearch/toolsearch/internal/demo"
)

// parseCatalogReference is ParseCatalog written with encoding/json (the
// document unmarshalled, then each tool): the one-pass reader must accept
// what it accepts and decode the same tools.
func parseCatalogReference(data []byte) ([]Tool, error) {
	var doc struct {
		Tools *[]json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Tools == nil {
		return nil, fmt.Errorf("no tools")
	}
	tools := make([]Tool, 0, len(*doc.Tools))
	for _, raw := range *doc.Tools {
		var c struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
			SearchHint  string          `json:"search_hint"`
			ShouldDefer *bool           `json:"should_defer"`
			AlwaysLoad  bool            `json:"always_load"`
			Server      string          `json:"server"`
			MCPToolName string          `json:"mcp_tool_name"`
			Aliases     []string        `json:"aliases"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, err
		}
		if c.Name == "" {
			return nil, fmt.Errorf("no name")
		}
		if string(c.InputSchema) == "null" {
			c.InputSchema = nil
		}
		tools = append(tools, Tool{Name: c.Name, Description: c.Description, InputSchema: c.InputSchema,
			SearchHint: c.SearchHint, ShouldDefer: c.ShouldDefer == nil || *c.ShouldDefer, AlwaysLoad: c.AlwaysLoad,
			Server: c.Server, MCPName: c.MCPToolName, Aliases: c.Aliases})
	}
	return tools, nil
}

// catalogCases are catalogs at the edges of the format, good and bad.
var catalogCases = []string{
	`{"tools":[]}`,
	` {"tools":[{"name":"A"}]} `,
	`{"tools":[{"name":"A","description":"d","input_schema":{"type":"object","properties":{"x":{"type":["string",null]}}},"search_hint":"h","should_defer":false,"always_load":true,"server":"s","mcp_tool_name":"m","aliases":["b","c"]}]}`,
	`{"other":{"x":[1,-2.5e+3,true,false,null,"s"]},"tools":[{"name":"A","extra":[[{}]]}],"more":0}`,
	`{"tools":[{"NAME":"A","Description":"x","SERVER":"s","ſerver":"long s","Kelvin":1}]}`,
	`{"tools":[{"name":"A","name":"B","description":"x","description":null,"should_defer":false,"should_defer":null}]}`,
	`{"tools":[{"name":"A","input_schema":{"type":"object"},"input_schema":null,"aliases":["x"],"aliases":null}]}`,
	`{"tools":[{"name":"A","aliases":[]}]}`,
	`{"tools":[{"name":"A","aliases":[null,"b"]}]}`,
	`{"tools":[{"name":"A"}],"tools":[{"name":"B"}]}`,
	`{"tools":[{"name":"A"}],"tools":null}`,
	`{"tools":null}`,
	`{}`,
	`null`,
	`{"tools":[{"name":"esc \"q\" \\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 \ud800 \udc00x \ud800\u0041 é 世界"}]}`,
	"{\"tools\":[{\"name\":\"bad \xff utf8 \xe2\x82\"}]}",
	`{"tools":[{"na\u006de":"escaped key"}]}`,
	`{"tools":[{"name":"A","input_schema":  {"a" : [ 1 , 2 ] }  }]}`,
	// bad
	``,
	`[]`,
	`{"tools":{}}`,
	`{"tools":[5]}`,
	`{"tools":[null]}`,
	`{"tools":[{"name":7}]}`,
	`{"tools":[{"name":"A","description":7}]}`,
	`{"tools":[{"name":"A","should_defer":"yes"}]}`,
	`{"tools":[{"name":"A","always_load":1}]}`,
	`{"tools":[{"name":"A","aliases":"b"}]}`,
	`{"tools":[{"name":"A","aliases":[1]}]}`,
	`{"tools":[{"name":"A"}]} x`,
	`{"tools":[{"name":"A"},]}`,
	`{"tools":[{"name":"A",}]}`,
	`{"tools":[{"name":"A" "x":1}]}`,
	`{"tools":[{"name":"A","input_schema":{"a":01}}]}`,
	`{"tools":[{"name":"A","input_schema":{"a":1.}}]}`,
	`{"tools":[{"name":"A","input_schema":{"a":-}}]}`,
	`{"tools":[{"name":"A","input_schema":{"a":1e}}]}`,
	`{"tools":[{"name":"A","input_schema":{"a":tru}}]}`,
	`{"tools":[{"name":"A","input_schema":{"a":"\x"}}]}`,
	`{"tools":[{"name":"A","input_schema":{"a":"\u12"}}]}`,
	"{\"tools\":[{\"name\":\"A\x01\"}]}",
	`{"tools":[{"name":"A","input_schema":{"a":1}`,
	`{"tools":[{"name":"A","input_schema":{"a":nul}}]}`,
	`{"tools":[{"name":nul}]}`,
	`{"tools":nul}`,
	`{"tools":[{"name":"A","should_defer":tru}]}`,
}

// TestParseCatalogAgreesWithEncodingJSON: on every case, and on the demo
// and bench catalogs, ParseCatalog errs where encoding/json does and
// otherwise decodes the same tools.
func TestParseCatalogAgreesWithEncodingJSON(t *testing.T) {
	cases := append([]string{string(demo.Catalog)}, catalogCases...)
	files, err := filepath.Glob("testdata/bench/*.json")
	require.NoError(t, err)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		cases = append(cases, string(data))
	}
	for _, c := range cases {
		checkCatalogAgrees(t, []byte(c))
	}
}

func checkCatalogAgrees(t *testing.T, data []byte) {
	t.Helper()
	short := string(data[:min(len(data), 120)])
	want, wantErr := parseCatalogReference(data)
	got, err := ParseCatalog(data)
	if wantErr != nil {
		require.Error(t, err, "ParseCatalog(%q): encoding/json says %v", short, wantErr)
		assert.Nil(t, got)
		return
	}
	require.NoError(t, err, "ParseCatalog(%q)", short)
	require.Equal(t, want, got, "ParseCatalog(%q)", short)
}

func FuzzParseCatalog(f *testing.F) {
	for _, c := range catalogCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkCatalogAgrees(t, data)
	})
}

// TestParseCatalogErrorsSayWhere: an error names the byte where the input
// went wrong and the tool (index, name, where it starts) it was in.
func TestParseCatalogErrorsSayWhere(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"tools":[`, `catalog: tools[0] (from byte 10): byte 10: unexpected end of input, looking for a value`},
		{`{"tools":[{"name":"A"}]} x`, `catalog: byte 25: invalid character 'x' after the top-level value`},
		{`[]`, `catalog: byte 0: an array where an object is wanted`},
		{`{"tools":5}`, `catalog: byte 9: a number where an array is wanted`},
		{`{"tools":[{"name":"A"},{"name":"B","description":7}]}`,
			`catalog: tools[1] (name "B", from byte 23): description: byte 49: a number where a string is wanted`},
		{`{"tools":[{"description":7,"name":"B"}]}`,
			`catalog: tools[0] (name "B", from byte 10): description: byte 25: a number where a string is wanted`},
		{`{"tools":[{"name":"A"}, {"name":"B","input_schema":{"a":01}}]}`,
			`catalog: tools[1] (name "B", from byte 24): byte 57: invalid character '1', looking for ',' or '}' after an object value`},
		{`{"tools":[{"input_schema":{"a":"\x"}}]}`,
			`catalog: tools[0] (from byte 10): byte 32: invalid escape "\\x" in a string`},
		{`{"tools":[{"name":"A"},{"description":"x"}]}`,
			`catalog: tools[1] (from byte 23): toolsearch: invalid tool name: no name`},
		{`{"tools":[{"name":"A","should_defer":"yes"}]}`,
			`catalog: tools[0] (name "A", from byte 10): should_defer: byte 37: a string where a boolean is wanted`},
		{`{}`, `catalog: no "tools" array`},
	} {
		_, err := ParseCatalog([]byte(c.in))
		require.Error(t, err, "ParseCatalog(%s)", c.in)
		assert.Equal(t, c.want, err.Error(), "ParseCatalog(%s)", c.in)
	}
}

// TestParseCatalogOwnsItsData: the tools do not share memory with the
// file's bytes.
func TestParseCatalogOwnsItsData(t *testing.T) {
	data := []byte(`{"tools":[{"name":"A","description":"d","input_schema":{"type":"object"}},{"name":"B","input_schema":{}}]}`)
	tools, err := ParseCatalog(data)
	require.NoError(t, err)
	for i := range data {
		data[i] = ' '
	}
	assert.Equal(t, "A", tools[0].Name)
	assert.Equal(t, "d", tools[0].Description)
	assert.JSONEq(t, `{"type":"object"}`, string(tools[0].InputSchema))
	tools[0].InputSchema = append(tools[0].InputSchema, '!') // capped: cannot run into the next schema
	assert.Equal(t, `{}`, string(tools[1].InputSchema))
}
