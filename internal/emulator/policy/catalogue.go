package policy

import (
	"sort"
	"strings"
)

// Managed is a managed policy of the catalogue.
type Managed struct {
	Arn         string
	Name        string
	Description string
	Document    Document
}

// ARNs of the managed policies the cloud provides (policy names, not
// credentials).
//
//nolint:gosec // G101 mistakes "Token" in a policy name for a credential
const (
	ModelsLimitedAccess       = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
	DenyBearerTokens          = "arn:cloud:identity::cloud:policy/DenyBearerTokens"
	DenyShortTermBearerTokens = "arn:cloud:identity::cloud:policy/DenyShortTermBearerTokens"
	DenyLongTermBearerTokens  = "arn:cloud:identity::cloud:policy/DenyLongTermBearerTokens"
)

var catalogue = map[string]Managed{}

func add(arn, description, doc string) {
	catalogue[strings.ToLower(arn)] = Managed{
		Arn:         arn,
		Name:        arn[strings.LastIndex(arn, "/")+1:],
		Description: description,
		Document:    MustParse(doc),
	}
}

func init() {
	add(ModelsLimitedAccess, "Allows every action of the model runtime service (models:*) on every resource; the policy a long-term API key's user needs.", `{
  "Version": "2012-10-17",
  "Statement": [
    {"Sid": "ModelsAccess", "Effect": "Allow", "Action": ["models:*", "models-alt:*"], "Resource": "*"}
  ]
}`)
	add(DenyBearerTokens, "Denies the use of any API key (short-term or long-term) through both endpoints of the model service.", `{
  "Version": "2012-10-17",
  "Statement": [
    {"Sid": "DenyBearerTokens", "Effect": "Deny", "Action": ["models:CallWithBearerToken", "models-alt:CallWithBearerToken"], "Resource": "*"}
  ]
}`)
	add(DenyShortTermBearerTokens, "Denies the use of short-term API keys through both endpoints of the model service.", `{
  "Version": "2012-10-17",
  "Statement": [
    {"Sid": "DenyShortTermModels", "Effect": "Deny", "Action": "models:CallWithBearerToken", "Resource": "*",
     "Condition": {"StringEquals": {"models:bearerTokenType": "SHORT_TERM"}}},
    {"Sid": "DenyShortTermModelsAlt", "Effect": "Deny", "Action": "models-alt:CallWithBearerToken", "Resource": "*",
     "Condition": {"StringEquals": {"models-alt:bearerTokenType": "SHORT_TERM"}}}
  ]
}`)
	add(DenyLongTermBearerTokens, "Denies the use of long-term API keys through both endpoints of the model service.", `{
  "Version": "2012-10-17",
  "Statement": [
    {"Sid": "DenyLongTermModels", "Effect": "Deny", "Action": "models:CallWithBearerToken", "Resource": "*",
     "Condition": {"StringEquals": {"models:bearerTokenType": "LONG_TERM"}}},
    {"Sid": "DenyLongTermModelsAlt", "Effect": "Deny", "Action": "models-alt:CallWithBearerToken", "Resource": "*",
     "Condition": {"StringEquals": {"models-alt:bearerTokenType": "LONG_TERM"}}}
  ]
}`)
}

// Lookup returns the managed policy with this ARN (case-insensitive).
func Lookup(arn string) (Managed, bool) {
	m, ok := catalogue[strings.ToLower(arn)]
	return m, ok
}

// Catalogue lists the managed policies, sorted by ARN.
func Catalogue() []Managed {
	out := make([]Managed, 0, len(catalogue))
	for _, m := range catalogue {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Arn < out[j].Arn })
	return out
}
