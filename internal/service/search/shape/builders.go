package shape

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// The builders the section table (sections.go) is written with: one per
// value kind, and modifiers for a field's role and checks.

func newField(wire string, k codec, doc string, v []validator.Describer) field {
	return field{wire: wire, name: snake(wire), kind: k, doc: doc, validators: v}
}

func str(wire, doc string, v ...validator.String) field {
	return newField(wire, stringKind{}, doc, describers(v))
}

// enum is a string of one of values; the description lists them.
func enum(wire, doc string, values []string) field {
	f := str(wire, strings.TrimSpace(doc+" One of "+backquoted(values)+"."), stringvalidator.OneOf(values...))
	f.oneOf = values
	return f
}

// policy is a JSON document in a string, compared by meaning.
func policy(wire, doc string, v ...validator.String) field {
	return newField(wire, policyKind{}, doc, describers(v))
}

func boolean(wire, doc string) field { return newField(wire, boolKind{}, doc, nil) }

func integer(wire, doc string, v ...validator.Int64) field {
	return newField(wire, int64Kind{}, doc, describers(v))
}

func timestamp(wire, doc string) field {
	// The attribute's type (customtypes.TimeType) checks the form.
	return newField(wire, timeKind{}, doc+" (RFC 3339, such as `2026-01-02T03:04:05Z` or `2026-01-02T05:04:05+02:00`).", nil)
}

func stringSet(wire, doc string, v ...validator.Set) field {
	return newField(wire, stringSetKind{}, doc, describers(v))
}

func stringMap(wire, doc string, v ...validator.Map) field {
	f := newField(wire, stringMapKind{}, doc, describers(v))
	e := newField(wire, stringKind{}, "", nil)
	f.elem = &e
	return f
}

func object(wire, doc string, fields ...field) field {
	f := newField(wire, objectKind{}, doc, nil)
	f.fields = fields
	return f
}

// enabled is the common object holding one Enabled flag.
func enabled(wire, doc string) field {
	return object(wire, doc, boolean("Enabled", "Whether it is enabled."))
}

func objectList(wire, doc string, fields ...field) field {
	return collection(wire, objectListKind{}, doc, fields)
}

// objectMap is an object of objects, keyed by name.
func objectMap(wire, doc string, fields ...field) field {
	return collection(wire, objectMapKind{}, doc, fields)
}

// collection is a list or a map (kind k) whose elements are objects of
// fields.
func collection(wire string, k codec, doc string, fields []field) field {
	f := newField(wire, k, doc, nil)
	f.fields = fields
	e := object(wire, "", fields...)
	f.elem = &e
	return f
}

func (f field) only(r role) field { f.role = r; return f }
func (f field) secret() field     { f.sensitive = true; return f }

// check adds validators of the field's kind (validator.Object for an
// object, validator.List for a list, validator.Map for a map).
func (f field) check(v ...validator.Describer) field {
	f.validators = append(f.validators, v...)
	return f
}

// withDefaults sets the defaults of a string map's keys.
func (f field) withDefaults(d map[string]string) field { f.defaults = d; return f }
