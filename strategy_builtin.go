package toolsearch

import (
	"strings"
)

// builtinStrategies are the built-in strategies, in the order they are
// documented, each with its default settings. ParseStrategy and
// StrategyNames read this table, and through them the command line and
// the tests: a built-in strategy is added here, in its own file, and in
// the documentation.
var builtinStrategies = []struct {
	name string
	make func() Strategy
}{
	{"default", DefaultStrategy},
	{"bm25", func() Strategy { return BM25Strategy(nil) }},
	{"regex", RegexStrategy},
	{"hybrid", HybridStrategy},
}

// StrategyNames returns the names of the built-in strategies, as
// ParseStrategy accepts them, in the order they are documented: default,
// bm25, regex, hybrid.
func StrategyNames() []string {
	names := make([]string, len(builtinStrategies))
	for i, b := range builtinStrategies {
		names[i] = b.name
	}
	return names
}

// ParseStrategy returns the built-in strategy named name, with its default
// settings: "default" (or ""), "bm25", "regex" or "hybrid". Another name is
// an error wrapping ErrInvalidOption.
func ParseStrategy(name string) (Strategy, error) {
	if name == "" {
		name = "default"
	}
	for _, b := range builtinStrategies {
		if b.name == name {
			return b.make(), nil
		}
	}
	return nil, errorf(ErrInvalidOption, "unknown strategy %q (want one of %s)", name, strings.Join(StrategyNames(), ", "))
}
