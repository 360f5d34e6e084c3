package toolsearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// worstCase is one keyword at its worst: a schema and the arguments of
// size n, the larger n the more work.
type worstCase struct {
	name, schema string
	args         func(n int) string
}

func repeatJoin(s string, n int) string { return strings.TrimSuffix(strings.Repeat(s+",", n), ",") }

func objectOf(n int, value string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%s`, i, value)
	}
	return b.String() + "}"
}

var worstCases = func() []worstCase {
	years := make([]string, 201)
	for i := range years {
		years[i] = fmt.Sprint(1900 + i)
	}
	hugeEnum := make([]string, 0, 600)
	for i := range 600 {
		hugeEnum = append(hugeEnum, fmt.Sprintf("%d%se-399", i+1, strings.Repeat("7", 90)))
	}
	bigNum := strings.Repeat("9", 100) + "e-400"
	long := strings.Repeat("d", 30_000)
	allOf := func(n int, sub string) string { return `{"allOf":[` + repeatJoin(sub, n) + `]}` }
	str := func(s string) func(int) string {
		return func(n int) string { return `{"s":"` + strings.Repeat(s, n) + `"}` }
	}
	prop := func(sub string) string { return `{` + draft7 + `"properties":{"s":` + sub + `}}` }
	return []worstCase{
		{"format-duration", prop(`{"format":"duration"}`), func(n int) string { return `{"s":"P` + strings.Repeat("1Y", n) + `"}` }},
		{"format-period", prop(`{"format":"period"}`), func(n int) string { return `{"s":"P` + strings.Repeat("1D", n) + `/P1D"}` }},
		{"format-regex", prop(`{"format":"regex"}`), str("(a{1000})")},
		{"format-date-time", prop(`{"format":"date-time"}`), func(n int) string { return `{"s":"2020-01-01T00:00:00.` + strings.Repeat("1", n) + `Z"}` }},
		{"format-uri", prop(`{"format":"uri"}`), func(n int) string { return `{"s":"http://x/` + strings.Repeat("%41", n) + `"}` }},
		{"format-ipv6", prop(`{"format":"ipv6"}`), str("1:")},
		{"format-json-pointer", prop(`{"format":"json-pointer"}`), str("/~0")},
		{"100-formats", prop(`{"allOf":[` + repeatJoin(`{"format":"uri-reference"},{"format":"hostname"},{"format":"email"},{"format":"uuid"},{"format":"ipv4"}`, 20) + `]}`), str("a")},
		{"pattern-1003-instructions", `{"properties":{"s":{"pattern":"[^x]{1000}y"}}}`, str("a")},
		{"minLength", `{"properties":{"s":{"minLength":1,"maxLength":2}}}`, str("é")},
		{"uniqueItems-colliding-hashes", `{"properties":{"s":{"uniqueItems":true}}}`, func(n int) string {
			return `{"s":[` + strings.Join(signVariants(16)[:min(n, 1<<16)], ",") + `]}`
		}},
		{"uniqueItems-objects", `{"properties":{"s":{"uniqueItems":true}}}`, func(n int) string {
			return `{"s":[` + repeatJoin(`{"b":[1,-1],"a":"x"}`, n) + `,{"a":"x","b":[1,-1]}]}`
		}},
		{"allOf-60-objects", allOf(60, `{"type":"object"}`), func(n int) string { return objectOf(n, "1") }},
		{"object-keys", `{"type":"object","additionalProperties":{"type":"integer"}}`, func(n int) string { return objectOf(n, `"x"`) }},
		{"allOf-60-arrays", allOf(60, `{"type":"array"}`), func(n int) string { return `[` + repeatJoin("1", n) + `]` }},
		{"enum-201-years", `{"properties":{"s":{"items":{"enum":[` + strings.Join(years, ",") + `]}}}}`, func(n int) string { return `{"s":[` + repeatJoin("1999.0", n) + `]}` }},
		{"enum-60KB-huge-exponents", `{"properties":{"s":{"items":{"enum":[` + strings.Join(hugeEnum, ",") + `]}}}}`, func(n int) string { return `{"s":[` + repeatJoin(bigNum, n) + `]}` }},
		{"const-object", `{"properties":{"s":{"items":{"const":{"a":[1,2,{"b":1e400}]}}}}}`, func(n int) string { return `{"s":[` + repeatJoin(`{"a":[1,2,{"b":10e399}]}`, n) + `]}` }},
		{"multipleOf-minimum-integer", `{"properties":{"s":{"items":{"type":"integer","multipleOf":7e-400,"minimum":-1e400,"exclusiveMaximum":1e400}}}}`, func(n int) string { return `{"s":[` + repeatJoin(bigNum, n) + `]}` }},
		{"patternProperties", `{"patternProperties":{"^k[0-9]+$":{},"[^x]{100}":{},"a|b|c|d":{}}}`, func(n int) string { return objectOf(n, "1") }},
		{"propertyNames", `{"propertyNames":{"pattern":"^k[0-9]*$","maxLength":10}}`, func(n int) string { return objectOf(n, "1") }},
		{"required-dependentRequired", `{"required":[` + repeatJoin(`"k1"`, 1) + `],"dependentRequired":{"k0":["k1","k2","k3"]},"minProperties":1}`, func(n int) string { return objectOf(n, "1") }},
		{"contains-prefixItems", `{"properties":{"s":{"prefixItems":[{"type":"string"}],"contains":{"type":"string"},"items":{"type":"number"},"unevaluatedItems":false}}}`, func(n int) string {
			return `{"s":[` + repeatJoin("1", n) + `]}`
		}},
		{"anyOf-oneOf-if", `{"properties":{"s":{"items":{"anyOf":[{"type":"string"},{"type":"integer"}],"oneOf":[{"minimum":0},{"maximum":0}],"if":{"type":"integer"},"then":{"multipleOf":1},"else":{"maxLength":1}}}}}`, func(n int) string {
			return `{"s":[` + repeatJoin("0", n) + `]}`
		}},
		{"unevaluatedProperties", `{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":{"type":"string"}}`, func(n int) string { return objectOf(n, "1") }},
		{"deep-recursive-failing", `{"type":"object","additionalProperties":{"$ref":"#"}}`, func(n int) string {
			return strings.Repeat(`{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk":`, n) + `1` + strings.Repeat(`}`, n)
		}},
		{"long-schema-location", `{"$defs":{"` + long + `":{"type":"string"}},"additionalProperties":{"$ref":"#/$defs/` + long + `"}}`, func(n int) string { return objectOf(n, "1") }},
		{"contentSchema", prop(`{"contentMediaType":"application/json","contentSchema":{"items":{"type":"integer"}}}`), func(n int) string {
			return `{"s":"[` + repeatJoin("1", n) + `]"}`
		}},
		{"values-no-subschema-reaches", `{"type":"object"}`, func(n int) string { return `{"s":[` + repeatJoin("1", n) + `]}` }},
		{"empty-objects-no-subschema-reaches", `{"type":"object"}`, func(n int) string { return `{"s":[` + repeatJoin("{}", n) + `]}` }},
		{"duplicate-key-refused", `{"type":"object"}`, func(n int) string { return strings.TrimSuffix(objectOf(n, "1"), "}") + `,"k0":2}` }},
	}
}

// largestAccepted returns the largest n (up to the argument size limit)
// whose arguments CheckCall does not refuse for their work or size.
func largestAccepted(s *Session, c worstCase) int {
	ok := func(n int) bool {
		a := c.args(n)
		if len(a) > defaultMaxArgumentBytes {
			return false
		}
		_, err := s.CheckCall("T", json.RawMessage(a))
		return !errors.Is(err, ErrLimit)
	}
	lo, hi := 1, 2
	for ok(hi) && hi < 1<<22 {
		lo, hi = hi, hi*2
	}
	for hi-lo > 1 {
		if m := (lo + hi) / 2; ok(m) {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// BenchmarkWorstCases runs every keyword of the schema library at its
// worst, with the largest arguments CheckCall accepts at the default
// limits (1 MiB, MaxValidationWork 10,000,000): each op is one call that
// is validated (refused calls are cheaper). The n of each case and the
// bytes of its arguments are reported as metrics. The first case is the yardstick: decoding 1 MiB of small JSON
// values with encoding/json alone, to tell the machine's load from a
// case's own cost.
func BenchmarkWorstCases(b *testing.B) {
	yardstick := []byte(objectOf(96_000, "1"))
	b.Run(fmt.Sprintf("yardstick-decode/%dB", len(yardstick)), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(yardstick, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range worstCases() {
		b.Run(c.name, func(b *testing.B) {
			reg, err := NewRegistry(nil, Tool{Name: "T", InputSchema: json.RawMessage(c.schema)})
			if err != nil {
				b.Fatal(c.name, err)
			}
			s := NewSession(reg, nil)
			n := largestAccepted(s, c)
			args := json.RawMessage(c.args(n))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = s.CheckCall("T", args)
			}
			b.ReportMetric(float64(n), "n")
			b.ReportMetric(float64(len(args)), "arg-bytes")
		})
	}
}
