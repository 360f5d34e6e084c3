package toolsearch

import "strconv"

// The text forms of the package's enumerations whose values are the
// indexes of a list of names (ServerStatus, Form, Profile): String gives the name,
// or "Type(N)" for a value without one; UnmarshalText reads a name.

// enumString returns names[v], or typ+"(N)" when v has no name.
func enumString[T ~int | ~uint8](v T, names []string, typ string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// enumParse returns the value named text, or an error wrapping
// ErrInvalidOption that names what was read and lists the names.
func enumParse[T ~int | ~uint8](text []byte, names []string, what string) (T, error) {
	for i, name := range names {
		if string(text) == name {
			return T(i), nil
		}
	}
	want := ""
	for i, name := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			want += " or "
		default:
			want += ", "
		}
		want += name
	}
	return 0, errorf(ErrInvalidOption, "unknown %s %q (want %s)", what, text, want)
}
