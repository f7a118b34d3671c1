package identity

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/policy"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Limits of policy attachments.
const (
	// MaxPoliciesPerUser is the quota of managed policies attached to one
	// user (IAM's default).
	MaxPoliciesPerUser = 10
	defaultMaxItems    = 100
)

type attachedPolicyXML struct {
	PolicyName string `xml:"PolicyName"`
	PolicyArn  string `xml:"PolicyArn"`
}

// managedPolicy finds a policy of the catalogue or one added with
// AddManagedPolicy.
func (s *Service) managedPolicy(arn string) (policy.Managed, bool) {
	if m, ok := s.custom[strings.ToLower(arn)]; ok {
		return m, true
	}
	return policy.Lookup(arn)
}

func (s *Service) checkPolicyArn(arn string) (policy.Managed, *apiError) {
	if arn == "" {
		return policy.Managed{}, invalidInput("PolicyArn is required.")
	}
	if rules.PolicyARN.CheckString(arn) != nil {
		return policy.Managed{}, invalidInput("PolicyArn %q is not a policy ARN (arn:cloud:identity::<account or cloud>:policy/<name>).", arn)
	}
	m, ok := s.managedPolicy(arn)
	if !ok {
		return policy.Managed{}, noSuchEntity("Policy %s does not exist or is not attachable.", arn)
	}
	return m, nil
}

func (s *Service) attachUserPolicy(_ *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	m, err := s.checkPolicyArn(form.Get("PolicyArn"))
	if err != nil {
		return nil, err
	}
	for _, p := range u.Policies {
		if strings.EqualFold(p, m.Arn) {
			return nil, nil // attaching again is a no-op, as in IAM
		}
	}
	if len(u.Policies) >= MaxPoliciesPerUser {
		return nil, &apiError{http.StatusConflict, "LimitExceeded", fmt.Sprintf("Cannot exceed quota for PoliciesPerUser: %d", MaxPoliciesPerUser)}
	}
	u.Policies = append(u.Policies, m.Arn)
	return nil, nil
}

func (s *Service) detachUserPolicy(_ *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	arn := form.Get("PolicyArn")
	if arn == "" {
		return nil, invalidInput("PolicyArn is required.")
	}
	if rules.PolicyARN.CheckString(arn) != nil {
		return nil, invalidInput("PolicyArn %q is not a policy ARN (arn:cloud:identity::<account or cloud>:policy/<name>).", arn)
	}
	for i, p := range u.Policies {
		if strings.EqualFold(p, arn) {
			u.Policies = append(u.Policies[:i:i], u.Policies[i+1:]...)
			return nil, nil
		}
	}
	return nil, noSuchEntity("Policy %s was not found attached to user %s.", arn, u.Name)
}

// listAttachedUserPolicies pages with MaxItems (1..1000, default 100) and an
// opaque Marker.
func (s *Service) listAttachedUserPolicies(_ *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	start, end, next, aerr := positionalPage(form, "policies", len(u.Policies))
	if aerr != nil {
		return nil, aerr
	}
	out := struct {
		AttachedPolicies []attachedPolicyXML `xml:"AttachedPolicies>member"`
		IsTruncated      bool                `xml:"IsTruncated"`
		Marker           string              `xml:"Marker,omitempty"`
	}{AttachedPolicies: []attachedPolicyXML{}}
	for _, arn := range u.Policies[start:end] {
		out.AttachedPolicies = append(out.AttachedPolicies, attachedPolicyXML{PolicyName: arn[strings.LastIndex(arn, "/")+1:], PolicyArn: arn})
	}
	out.IsTruncated, out.Marker = next != "", next
	return out, nil
}

// positionalPage is the window [start, end) of a list of n items, in a
// fixed order, that a request's MaxItems and Marker of kind ask for, and
// the marker of the page after it ("" when it is the last).
func positionalPage(form url.Values, kind string, n int) (start, end int, next string, aerr *apiError) {
	maxItems, aerr := pageSize(form)
	if aerr != nil {
		return 0, 0, "", aerr
	}
	if v := form.Get("Marker"); v != "" {
		pos, ok := decodeMarker(kind, v)
		p, err := strconv.Atoi(pos)
		if !ok || err != nil || p < 0 || p > n {
			return 0, 0, "", invalidInput("Marker %q is not a marker this service returned.", v)
		}
		start = p
	}
	end = min(start+maxItems, n)
	if end < n {
		next = encodeMarker(kind, strconv.Itoa(end))
	}
	return start, end, next, nil
}

// pageSize is a list's MaxItems: 1 to 1000, default 100.
func pageSize(form url.Values) (int, *apiError) {
	v := form.Get("MaxItems")
	if v == "" {
		return defaultMaxItems, nil
	}
	n, err := strconv.Atoi(v)
	if r := rules.ListMaxItems.Range; err != nil || !r.Contains(int64(n)) {
		return 0, invalidInput("MaxItems %q must be an integer from %d to %d.", v, r.Min, r.Max)
	}
	return n, nil
}

// encodeMarker is an opaque list marker: the list's kind and the position
// after which the next page starts.
func encodeMarker(kind, pos string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + pos))
}

// decodeMarker is encodeMarker's position, when m is a marker of kind.
func decodeMarker(kind, m string) (string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(m)
	pos, ok := strings.CutPrefix(string(b), kind+":")
	return pos, err == nil && ok
}
