// Package seed reads a seed file: the users, keys, domains and faults an
// emulator starts from (README.md beside this file describes the format).
// A seed is checked by the services' own rules as it is applied, and the
// first bad value is refused with its place in the file.
package seed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// FormatVersion is the version of the seed format this emulator reads.
const FormatVersion = 1

// File is a seed file, decoded. Its lists stay raw until they are applied,
// so every item is decoded with its own path (users[2].keys[0]).
type File struct {
	// name is how errors name the file (its base name).
	name string

	FormatVersion *int              `json:"format_version"`
	Policies      []json.RawMessage `json:"policies"`
	Users         []json.RawMessage `json:"users"`
	Domains       []json.RawMessage `json:"domains"`
	SearchPace    map[string]string `json:"search_pace"`
	Faults        []json.RawMessage `json:"faults"`
}

// Error is a refused seed: the file, the JSON path of the first bad value
// and what is wrong with it.
type Error struct{ File, Path, Message string }

func (e *Error) Error() string {
	switch {
	case e.File == "":
		return e.Path + ": " + e.Message
	case e.Path == "":
		return e.File + ": " + e.Message
	}
	return e.File + ": " + e.Path + ": " + e.Message
}

// Load reads and decodes the seed file at path; Apply checks each item
// against the services' rules.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path) //nolint:gosec // G304: the file the user named with -seed
	if err != nil {
		return nil, err
	}
	return Parse(filepath.Base(path), b)
}

// Parse decodes a seed file's content; name is how errors name the file.
func Parse(name string, content []byte) (*File, error) {
	f := &File{name: name}
	if err := decode(content, "", f); err != nil {
		return nil, f.wrap(err)
	}
	switch {
	case f.FormatVersion == nil:
		return nil, &Error{name, "format_version", fmt.Sprintf("required; this emulator reads format_version %d", FormatVersion)}
	case *f.FormatVersion != FormatVersion:
		return nil, &Error{name, "format_version", fmt.Sprintf("%d is not a version this emulator reads (%d)", *f.FormatVersion, FormatVersion)}
	}
	return f, nil
}

// wrap names the file in err, an *Error.
func (f *File) wrap(err error) error {
	var se *Error
	if errors.As(err, &se) {
		se.File = f.name
		return se
	}
	return &Error{File: f.name, Message: err.Error()}
}

// decode decodes raw into v strictly (no unknown field, one value), naming
// in its error the path of the bad value under at.
func decode(raw []byte, at string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(at, v, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Path: at, Message: "data after the JSON value"}
	}
	return nil
}

// decodeError is encoding/json's err as an *Error naming the path.
func decodeError(at string, v any, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return &Error{Path: join(at, te.Field), Message: fmt.Sprintf("expected %s, not %s", jsonType(te.Type.String()), te.Value)}
	case errors.As(err, &se):
		return &Error{Path: at, Message: fmt.Sprintf("not valid JSON (at byte %d): %v", se.Offset, err)}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &Error{Path: at, Message: "not valid JSON: it ends before the value does"}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return &Error{Path: join(at, name), Message: "not a field here; the fields are " + strings.Join(fieldNames(v), ", ")}
	}
	return &Error{Path: at, Message: err.Error()}
}

// jsonType names a Go type as the JSON value it decodes from.
func jsonType(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "*int"), strings.HasPrefix(goType, "float"):
		return "a whole number"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map["):
		return "an object"
	}
	return "an object"
}

// join is the path of member name under at.
func join(at, name string) string {
	if at == "" {
		return name
	}
	if name == "" {
		return at
	}
	return at + "." + name
}

// index is the path of item i of the list at.
func index(at string, i int) string { return fmt.Sprintf("%s[%d]", at, i) }

// fieldNames lists the JSON names of the struct v points to, sorted.
func fieldNames(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	if t.Kind() != reflect.Struct {
		return out
	}
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
