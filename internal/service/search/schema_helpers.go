package search

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// Schema pieces used by more than one of the service's types: the rules of
// a domain name and of an id, validation failures, and builders of
// computed data source attributes (the ds prefix: data source).

type dsAttrs = map[string]schema.Attribute

func dsString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

func dsInt64(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
}

func dsStringList(desc string) schema.ListAttribute {
	return schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
}

func dsObjectList(desc string, attrs map[string]schema.Attribute) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Computed: true, MarkdownDescription: desc, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
}

type validationFailureModel struct {
	Code     *string `tfsdk:"code"`
	Message  *string `tfsdk:"message"`
	Severity *string `tfsdk:"severity"`
}

// domainNameValidators are the spec's rules for a domain name.
func domainNameValidators() []validator.String { return validators.ASCIIStringRule(rules.DomainName) }

// idValidators are the spec's rules for a dry run id or change id.
func idValidators() []validator.String { return validators.ASCIIStringRule(rules.ChangeID) }

// validationFailuresSchema is the list of a dry run's or change's findings.
func validationFailuresSchema(of string) schema.ListNestedAttribute {
	return dsObjectList(fmt.Sprintf("Validation failures of the %s, sorted as the service returns them; empty when there are none.", of), dsAttrs{
		"code":     dsString("Code of the finding, such as `ADV_NO_DEDICATED_MASTERS`."),
		"message":  dsString("What the finding means."),
		"severity": dsString("`Advisory` (blocks unless its code is in `accepted_warnings`) or `Critical` (always blocks). Treat any other value as `Critical`."),
	})
}

func flattenValidationFailures(fs []searchclient.ValidationFailure) []validationFailureModel {
	out := make([]validationFailureModel, 0, len(fs))
	for _, f := range fs {
		out = append(out, validationFailureModel{Code: f.Code, Message: f.Message, Severity: f.Severity})
	}
	return out
}
