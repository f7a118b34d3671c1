package policy

import (
	"testing"
)

// FuzzEvaluate: Parse never panics; for any document it accepts, Evaluate
// never panics, agrees with Explain, and an explicit Deny of everything
// always wins over the document.
func FuzzEvaluate(f *testing.F) {
	f.Add([]byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":["models:CallWithBearerToken","models-alt:CallWithBearerToken"],"Resource":"*"}]}`),
		"models:CallWithBearerToken", "*", "models:bearerTokenType", "SHORT_TERM")
	f.Add([]byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"identity:CreateServiceSpecificCredential","Resource":"*","Condition":{"NumericLessThanEquals":{"identity:ServiceSpecificCredentialAgeDays":"90"},"StringEquals":{"identity:ServiceSpecificCredentialServiceName":"models.cloud.example"}}}]}`),
		"identity:CreateServiceSpecificCredential", "arn:cloud:identity::123456789012:user/alice", "identity:ServiceSpecificCredentialAgeDays", "91")
	f.Add([]byte(`{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"models:*","Resource":"arn:cloud:models:*"}}`), "models:Converse", "arn:cloud:models:us-east-1:1:x", "", "")
	f.Add([]byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"NumericLessThan":{"k":"1e400"}}}]}`), "a:b", "*", "k", "NaN")
	f.Add([]byte(`{}`), "", "", "", "")
	denyAll := MustParse(`{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"*","Resource":"*"}]}`)
	f.Fuzz(func(t *testing.T, doc []byte, action, resource, key, value string) {
		d, err := Parse(doc)
		if err != nil {
			return
		}
		keys := map[string]string{}
		if key != "" {
			keys[key] = value
		}
		got := Evaluate([]Document{d}, action, resource, keys)
		res := Explain([]Document{d}, action, resource, keys)
		if got != res.Decision {
			t.Fatalf("Evaluate %v, Explain %v", got, res.Decision)
		}
		_ = res.Reason()
		if got != ImplicitDeny && res.Statement == "" {
			t.Fatalf("decision %v names no statement", got)
		}
		if action != "" && resource != "" {
			if dd := Evaluate([]Document{d, denyAll}, action, resource, keys); dd != ExplicitDeny {
				t.Fatalf("a Deny of everything lost to the document: %v", dd)
			}
		}
		// The document survives a round trip through its JSON.
		if _, err := Parse(d.JSON()); err != nil {
			t.Fatalf("a parsed document does not parse again: %v\n%s", err, d.JSON())
		}
	})
}
