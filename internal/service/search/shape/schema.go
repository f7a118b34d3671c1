package shape

import (
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// ResourceAttributes are the sections as attributes of the resource's
// schema. Every field is Optional and Computed, keeping the state's value
// when the configuration leaves it out: the resource manages what the
// configuration sets, and a service default inside a set section never
// shows up as a difference. A field the service only returns is Computed.
func ResourceAttributes() map[string]schema.Attribute { return resourceAttributes(sections()) }

// DryRunConfigAttributes are a DryRunConfig's members as attributes of a
// data source's schema: computed, as the service answers them.
func DryRunConfigAttributes() map[string]dsschema.Attribute {
	return dataSourceAttributes(dryRunConfig().fields)
}

// lookup is the field at a wire path (ClusterConfig, InstanceCount): its
// Terraform name and its validators, each of the validator type of the
// field's kind.
func lookup(wirePath ...string) (name string, validators []validator.Describer, ok bool) {
	f, ok := sectionByWire(wirePath[0])
	for _, w := range wirePath[1:] {
		if !ok {
			break
		}
		f, ok = f.child(w)
	}
	if !ok {
		return "", nil, false
	}
	return f.name, f.validators, true
}

// sectionByWire finds a top-level section by its wire name
// (ClusterConfig), as dry-run and change properties name them.
func sectionByWire(wire string) (*field, bool) {
	all := sections()
	for i := range all {
		if all[i].wire == wire {
			return &all[i], true
		}
	}
	return nil, false
}
