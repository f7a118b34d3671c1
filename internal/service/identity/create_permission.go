package identity

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// checkCreateAllowed asks the identity service, at plan, whether the
// caller may create the planned key (SimulatePrincipalPolicy for
// identity:CreateServiceSpecificCredential with the request's condition
// keys), so that a policy that would refuse it at apply refuses it now,
// before anything (the user, other keys) is created. The principal is the
// one the provider runs as (a role session's role). A check that cannot
// be made is a warning: it never blocks a plan the service might allow.
func (r *serviceSpecificCredentialResource) checkCreateAllowed(ctx context.Context, plan *serviceSpecificCredentialModel, diags *diag.Diagnostics) {
	if plan.UserName.IsUnknown() || plan.ServiceName.IsUnknown() || plan.CredentialAgeDays.IsUnknown() {
		return
	}
	q := createQuestion{user: plan.UserName.ValueString(), service: plan.ServiceName.ValueString(), days: plan.CredentialAgeDays.ValueInt64()}
	results, err := r.simulateCreate(ctx, &q)
	if err != nil {
		diags.AddWarning("Key Permission Check Skipped",
			fmt.Sprintf("The provider could not ask the identity service whether it may create the key for user %q (it needs sts:GetCallerIdentity and identity:SimulatePrincipalPolicy), so a policy that refuses the key is found only at apply.\n\n%s", q.user, err))
		return
	}
	for _, res := range results {
		if res.EvalDecision != identityclient.DecisionAllowed {
			q.refused(res, diags)
		}
	}
}

// createQuestion is the create a plan asks the policy simulation about;
// principal and resource are filled in by simulateCreate.
type createQuestion struct {
	user, service       string
	days                int64
	principal, resource string
}

// simulateCreate asks whether the principal the provider runs as may
// create the key. The user's path is not known before it exists: the
// default one. A refusal is asked again for an existing user of another
// path, so that a policy on its path is not taken for a refusal.
func (r *serviceSpecificCredentialResource) simulateCreate(ctx context.Context, q *createQuestion) ([]identityclient.EvaluationResult, error) {
	if r.clients.Caller == nil {
		return nil, errors.New("the provider does not know who it runs as")
	}
	principal, err := r.clients.Caller.PrincipalARN(ctx)
	if err != nil {
		return nil, fmt.Errorf("finding who the provider runs as failed: %w", err)
	}
	q.principal, q.resource = principal, userArn(principal, q.user)
	results, err := r.simulate(ctx, q)
	if err == nil && !allowed(results) {
		if u, gerr := r.clients.Identity.GetUser(ctx, q.user); gerr == nil && u.Arn != "" && u.Arn != q.resource {
			q.resource = u.Arn
			results, err = r.simulate(ctx, q)
		}
	}
	if err != nil && !errors.Is(err, client.ErrAccessDenied) {
		err = fmt.Errorf("the policy simulation failed: %w", err)
	}
	return results, err
}

// simulate is one SimulatePrincipalPolicy call for question q.
func (r *serviceSpecificCredentialResource) simulate(ctx context.Context, q *createQuestion) ([]identityclient.EvaluationResult, error) {
	return r.clients.Identity.SimulatePrincipalPolicy(ctx, identityclient.SimulatePrincipalPolicyInput{
		PolicySourceArn: q.principal,
		ActionNames:     []string{"identity:CreateServiceSpecificCredential"},
		ResourceArns:    []string{q.resource},
		ContextEntries: []identityclient.ContextEntry{
			{Key: "identity:ServiceSpecificCredentialServiceName", Values: []string{q.service}, Type: "string"},
			{Key: "identity:ServiceSpecificCredentialAgeDays", Values: []string{strconv.FormatInt(q.days, 10)}, Type: "numeric"},
		},
	})
}

// refused reports a result that does not allow the create, on the
// attribute its reason names. The service needs an Allow for this action:
// an implicit deny (such as an age cap's Allow whose condition is not met)
// refuses it at apply as an explicit deny does.
func (q *createQuestion) refused(res identityclient.EvaluationResult, diags *diag.Diagnostics) {
	why := res.EvalDecisionReason
	if why == "" && len(res.MatchedStatements) > 0 {
		why = "decided by " + res.MatchedStatements[0].SourcePolicyID
	}
	if why == "" {
		why = fmt.Sprintf("%s: no statement allows identity:CreateServiceSpecificCredential on %s with the context values identity:ServiceSpecificCredentialAgeDays = %d and identity:ServiceSpecificCredentialServiceName = %q",
			res.EvalDecision, q.resource, q.days, q.service)
	}
	attr := path.Root("credential_age_days")
	if strings.Contains(why, "ServiceSpecificCredentialServiceName") && !strings.Contains(why, "ServiceSpecificCredentialAgeDays") {
		attr = path.Root("service_name")
	}
	diags.AddAttributeError(attr, createSummary,
		fmt.Sprintf("A policy of the principal Terraform runs as (%s) refuses a key for user %q with credential_age_days = %d for %s: %s. "+
			"The identity service's policy simulation says so at plan, before anything is created. "+
			"Ask for a key the policy allows (for example a shorter credential_age_days), or have an administrator change the policy.",
			q.principal, q.user, q.days, q.service, why))
}

// allowed reports whether every result allows the request.
func allowed(results []identityclient.EvaluationResult) bool {
	for _, res := range results {
		if res.EvalDecision != identityclient.DecisionAllowed {
			return false
		}
	}
	return true
}

// userArn is the ARN of user name (default path) in the caller's account.
func userArn(callerArn, name string) string {
	account := ""
	if parts := strings.SplitN(callerArn, ":", 6); len(parts) == 6 {
		account = parts[4]
	}
	return fmt.Sprintf("arn:cloud:identity::%s:user/%s", account, name)
}
