package text

import "encoding/json"

// Quote returns s as a text for the model quotes what a model wrote
// (a name not found, a term left out): Echo(s) as a JSON string, so in
// double quotes, with '"', '\\' and control characters escaped, and '<',
// '>' and '&' written \u003c, \u003e and \u0026 as json.Marshal writes
// them. A quoted text can end neither its quotation nor the text around
// it, and cannot open or close a tag (<system-reminder>, </functions>),
// whatever s holds.
func Quote(s string) string {
	b, err := json.Marshal(Echo(s))
	if err != nil { // a string always encodes
		panic("text: quoting: " + err.Error())
	}
	return string(b)
}
