package identity

import (
	"context"
	"net/url"
	"strconv"
)

// ContextEntry is one condition key of a simulated request.
type ContextEntry struct {
	Key    string
	Values []string
	// Type is string, numeric, boolean, date, ... (and their List forms).
	Type string
}

// SimulatePrincipalPolicyInput asks whether the principal PolicySourceArn
// may perform ActionNames (service:Action) on ResourceArns (default *)
// with the condition keys ContextEntries.
type SimulatePrincipalPolicyInput struct {
	PolicySourceArn string
	ActionNames     []string
	ResourceArns    []string
	ContextEntries  []ContextEntry
}

// MatchedStatement names a statement that decided an evaluation.
type MatchedStatement struct {
	SourcePolicyID   string `xml:"SourcePolicyId"`
	SourcePolicyType string `xml:"SourcePolicyType"`
}

// The decisions of an evaluation.
const (
	DecisionAllowed      = "allowed"
	DecisionExplicitDeny = "explicitDeny"
	DecisionImplicitDeny = "implicitDeny"
)

// EvaluationResult is the decision on one action and resource.
type EvaluationResult struct {
	EvalActionName    string             `xml:"EvalActionName"`
	EvalResourceName  string             `xml:"EvalResourceName"`
	EvalDecision      string             `xml:"EvalDecision"`
	MatchedStatements []MatchedStatement `xml:"MatchedStatements>member"`
	// EvalDecisionReason is a sentence on a refusal that some services
	// (the local emulator) add; empty otherwise.
	EvalDecisionReason string `xml:"EvalDecisionReason"`
}

// SimulatePrincipalPolicy evaluates the principal's policies for the
// request, following the pages. It changes nothing, so it is retried like
// a read.
func (c *Client) SimulatePrincipalPolicy(ctx context.Context, in SimulatePrincipalPolicyInput) ([]EvaluationResult, error) {
	p := url.Values{"PolicySourceArn": {in.PolicySourceArn}}
	for i, a := range in.ActionNames {
		p.Set("ActionNames.member."+strconv.Itoa(i+1), a)
	}
	for i, r := range in.ResourceArns {
		p.Set("ResourceArns.member."+strconv.Itoa(i+1), r)
	}
	for i, e := range in.ContextEntries {
		n := "ContextEntries.member." + strconv.Itoa(i+1) + "."
		p.Set(n+"ContextKeyName", e.Key)
		p.Set(n+"ContextKeyType", e.Type)
		for j, v := range e.Values {
			p.Set(n+"ContextKeyValues.member."+strconv.Itoa(j+1), v)
		}
	}
	var all []EvaluationResult
	for {
		var out struct {
			Results     []EvaluationResult `xml:"EvaluationResults>member"`
			IsTruncated bool               `xml:"IsTruncated"`
			Marker      string             `xml:"Marker"`
		}
		if err := c.call(ctx, simulatePrincipalPolicy, p, &out); err != nil {
			return nil, err
		}
		all = append(all, out.Results...)
		if !out.IsTruncated || out.Marker == "" {
			return all, nil
		}
		p.Set("Marker", out.Marker)
	}
}
