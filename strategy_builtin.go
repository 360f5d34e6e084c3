package toolsearch

import "fmt"

// ParseStrategy returns the built-in strategy named name, with its default
// settings: "default" (or ""), "bm25", "regex" or "hybrid". Another name is
// an error wrapping ErrInvalidOption.
func ParseStrategy(name string) (Strategy, error) {
	switch name {
	case "", "default":
		return DefaultStrategy(), nil
	case "bm25":
		return BM25Strategy(nil), nil
	case "regex":
		return RegexStrategy(), nil
	case "hybrid":
		return HybridStrategy(), nil
	}
	return nil, fmt.Errorf("%w: unknown strategy %q (want one of default, bm25, regex, hybrid)", ErrInvalidOption, name)
}
