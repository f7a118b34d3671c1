package validators

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// JSONObject checks that a JSON document is an object, as a policy
// document is. Whether it is JSON at all is the attribute type's check
// (jsontypes.Normalized), so text that is not JSON passes here.
func JSONObject() validator.String { return jsonObject{} }

type jsonObject struct{}

func (jsonObject) Description(context.Context) string { return "a JSON object" }

func (v jsonObject) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (jsonObject) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return
	}
	var doc any
	if json.Unmarshal([]byte(req.ConfigValue.ValueString()), &doc) != nil {
		return
	}
	if _, ok := doc.(map[string]any); ok {
		return
	}
	kind := "a value"
	switch doc.(type) {
	case []any:
		kind = "an array"
	case string:
		kind = "a string"
	case float64:
		kind = "a number"
	case bool:
		kind = "a boolean"
	case nil:
		kind = "null"
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Policy Document",
		fmt.Sprintf("%s must be a JSON policy document, an object such as {\"Version\": \"2012-10-17\", \"Statement\": [...]}; got %s. jsonencode({...}) builds one.", req.Path, kind))
}
