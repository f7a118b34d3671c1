package identity

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/diagnostics"
)

// checkCreateAllowed asks the identity service, at plan, whether the
// principal that will apply may create the planned key
// (SimulatePrincipalPolicy for identity:CreateServiceSpecificCredential
// with the request's condition keys), so that a policy that would refuse
// it at apply refuses it now, before anything (the user, other keys) is
// created. That principal is apply_principal_arn when set (a CI that
// plans under a read-only role), else the one the provider runs as (a role
// session's role). A check that cannot be made is one warning per plan: it
// never blocks a plan the service might allow, and the other keys' checks
// are not asked again.
func (r *serviceSpecificCredentialResource) checkCreateAllowed(ctx context.Context, plan *serviceSpecificCredentialModel, diags *diag.Diagnostics) {
	if plan.UserName.IsUnknown() || plan.ServiceName.IsUnknown() || plan.CredentialAgeDays.IsUnknown() {
		return
	}
	if r.clients.PlanChecks.Skipped() != nil {
		return
	}
	// Only an apply creates users, so a key whose user this provider
	// instance created is being planned again at apply: its user exists
	// already, the reviewed plan asked this question, and the create that
	// follows gets the policy's answer itself.
	if _, ok := r.clients.CreatedUsers.Created(plan.UserName.ValueString()); ok {
		return
	}
	q := createQuestion{user: plan.UserName.ValueString(), service: plan.ServiceName.ValueString(), days: plan.CredentialAgeDays.ValueInt64(), named: r.clients.ApplyPrincipal != ""}
	if q.named && r.otherAccount(ctx, diags) {
		return
	}
	results, err := r.simulateCreate(ctx, &q)
	if q.named && errors.Is(err, client.ErrNotFound) {
		diagnostics.AddApplyPrincipalNotFound(diags, r.clients.PlanChecks.Skip(err), q.principal)
		return
	}
	if err != nil {
		if r.clients.PlanChecks.Skip(err) {
			diagnostics.AddKeyCheckSkipped(diags, q.check(), err)
		}
		return
	}
	for _, res := range results {
		if res.EvalDecision == identityclient.DecisionAllowed {
			continue
		}
		if q.named && r.principalMissing(ctx, q.principal, diags) {
			return
		}
		diagnostics.AddKeyRefusedAtPlan(diags, q.check(), res)
	}
}

// otherAccount reports, with an error, whether apply_principal_arn is in
// another account than the one the provider runs in: the provider applies
// in its own account, and the simulation of another account's principal
// would deny everything, which reads as a policy refusing the key. No call
// when the account is known from Configure's credential check.
func (r *serviceSpecificCredentialResource) otherAccount(ctx context.Context, diags *diag.Diagnostics) bool {
	if r.clients.Caller == nil {
		return false
	}
	account, err := r.clients.Caller.AccountID(ctx)
	if err != nil || account == "" {
		return false
	}
	named := r.clients.ApplyPrincipal
	other := conns.ARNAccount(named)
	if other == "" || other == account {
		return false
	}
	if r.clients.PlanChecks.Skip(fmt.Errorf("apply_principal_arn in account %s", other)) {
		diagnostics.AddApplyPrincipalInOtherAccount(diags, named, other, account)
	}
	return true
}

// principalMissing reports, with an error, whether apply_principal_arn
// names a user that does not exist (one GetUser, only once a simulation
// refused): the simulation denies everything to a principal it cannot
// find, which is not a policy refusing the key.
func (r *serviceSpecificCredentialResource) principalMissing(ctx context.Context, principal string, diags *diag.Diagnostics) bool {
	_, name, ok := strings.Cut(principal, ":user/")
	if !ok {
		return false
	}
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if _, err := r.clients.Identity.GetUser(ctx, name); !errors.Is(err, client.ErrNotFound) {
		return false
	}
	diagnostics.AddApplyPrincipalNotFound(diags, r.clients.PlanChecks.Skip(fmt.Errorf("apply_principal_arn %s does not exist", principal)), principal)
	return true
}

// createQuestion is the create a plan asks the policy simulation about;
// principal and resource are filled in by simulateCreate.
type createQuestion struct {
	user, service       string
	days                int64
	principal, resource string
	// named: the principal is apply_principal_arn, not the caller.
	named bool
}

// check is q as the diagnostics of the plan's check name it.
func (q *createQuestion) check() diagnostics.KeyCheck {
	return diagnostics.KeyCheck{User: q.user, Service: q.service, Days: q.days, Principal: q.principal, Resource: q.resource, Named: q.named}
}

// simulateCreate asks whether the principal that applies
// (apply_principal_arn, else the one the provider runs as) may create
// the key. The user's path is not known before it exists: the
// default one. A refusal is asked again for an existing user of another
// path, so that a policy on its path is not taken for a refusal.
func (r *serviceSpecificCredentialResource) simulateCreate(ctx context.Context, q *createQuestion) ([]identityclient.EvaluationResult, error) {
	principal := r.clients.ApplyPrincipal
	q.principal = principal
	if principal == "" {
		if r.clients.Caller == nil {
			return nil, errors.New("the provider does not know who it runs as")
		}
		var err error
		if principal, err = r.clients.Caller.PrincipalARN(ctx); err != nil {
			return nil, fmt.Errorf("finding who the provider runs as failed: %w", err)
		}
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

// simulate asks question q: one SimulatePrincipalPolicy call shared with
// the other keys planned at the same time for the same principal, service
// and age (conns.Simulations), each key getting its user's result.
func (r *serviceSpecificCredentialResource) simulate(ctx context.Context, q *createQuestion) ([]identityclient.EvaluationResult, error) {
	return r.clients.Simulations.Simulate(ctx, identityclient.SimulatePrincipalPolicyInput{
		PolicySourceArn: q.principal,
		ActionNames:     []string{"identity:CreateServiceSpecificCredential"},
		ResourceArns:    []string{q.resource},
		ContextEntries: []identityclient.ContextEntry{
			{Key: "identity:ServiceSpecificCredentialServiceName", Values: []string{q.service}, Type: "string"},
			{Key: "identity:ServiceSpecificCredentialAgeDays", Values: []string{strconv.FormatInt(q.days, 10)}, Type: "numeric"},
		},
	})
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
	return fmt.Sprintf("arn:cloud:identity::%s:user/%s", conns.ARNAccount(callerArn), name)
}
