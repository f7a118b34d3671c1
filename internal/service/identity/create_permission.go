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
// before anything (the user, other keys) is created. A check that cannot
// be made is a warning: it never blocks a plan the service might allow.
func (r *serviceSpecificCredentialResource) checkCreateAllowed(ctx context.Context, plan *serviceSpecificCredentialModel, diags *diag.Diagnostics) {
	if plan.UserName.IsUnknown() || plan.ServiceName.IsUnknown() || plan.CredentialAgeDays.IsUnknown() {
		return
	}
	user, service := plan.UserName.ValueString(), plan.ServiceName.ValueString()
	skipped := func(err error) {
		diags.AddWarning("Key Permission Check Skipped",
			fmt.Sprintf("The provider could not ask the identity service whether it may create the key for user %q (it needs identity:GetUser on itself and identity:SimulatePrincipalPolicy), so a policy that refuses the key is found only at apply.\n\n%s", user, err))
	}
	caller, err := r.clients.Identity.GetCallingUser(ctx)
	if err != nil {
		skipped(err)
		return
	}
	keys := []identityclient.ContextEntry{{Key: "identity:ServiceSpecificCredentialServiceName", Values: []string{service}, Type: "string"}}
	age := "no credential_age_days (a key that never expires)"
	if !plan.CredentialAgeDays.IsNull() {
		days := plan.CredentialAgeDays.ValueInt64()
		age = fmt.Sprintf("credential_age_days = %d", days)
		keys = append(keys, identityclient.ContextEntry{Key: "identity:ServiceSpecificCredentialAgeDays", Values: []string{strconv.FormatInt(days, 10)}, Type: "numeric"})
	}
	results, err := r.clients.Identity.SimulatePrincipalPolicy(ctx, identityclient.SimulatePrincipalPolicyInput{
		PolicySourceArn: caller.Arn,
		ActionNames:     []string{"identity:CreateServiceSpecificCredential"},
		// The user's path is not known before it exists: the default one.
		ResourceArns:   []string{userArn(caller.Arn, user)},
		ContextEntries: keys,
	})
	if err != nil {
		if !errors.Is(err, client.ErrAccessDenied) {
			err = fmt.Errorf("the policy simulation failed: %w", err)
		}
		skipped(err)
		return
	}
	for _, res := range results {
		reason := res.EvalDecisionReason
		if reason == "" && len(res.MatchedStatements) > 0 {
			reason = "decided by " + res.MatchedStatements[0].SourcePolicyID
		}
		// Refuse only what names its statement: an implicit deny without
		// one may come from the guessed path of a user not made yet.
		named := res.EvalDecision == identityclient.DecisionExplicitDeny || strings.Contains(reason, "statement")
		if res.EvalDecision == identityclient.DecisionAllowed {
			continue
		}
		if !named {
			diags.AddWarning("Key May Be Refused",
				fmt.Sprintf("The identity service's policy simulation finds no statement that lets %s create a key for user %q with %s for %s (%s). The apply may be refused.",
					caller.Arn, user, age, service, res.EvalDecision))
			continue
		}
		attr := path.Root("credential_age_days")
		if strings.Contains(reason, "ServiceSpecificCredentialServiceName") && !strings.Contains(reason, "ServiceSpecificCredentialAgeDays") {
			attr = path.Root("service_name")
		}
		diags.AddAttributeError(attr, createSummary,
			fmt.Sprintf("A policy of the principal Terraform runs as (%s) refuses a key for user %q with %s for %s: %s. "+
				"The identity service's policy simulation says so at plan, before anything is created. "+
				"Ask for a key the policy allows (for example a shorter credential_age_days), or have an administrator change the policy.",
				caller.Arn, user, age, service, reason))
	}
}

// userArn is the ARN of user name (default path) in the caller's account.
func userArn(callerArn, name string) string {
	account := ""
	if parts := strings.SplitN(callerArn, ":", 6); len(parts) == 6 {
		account = parts[4]
	}
	return fmt.Sprintf("arn:cloud:identity::%s:user/%s", account, name)
}
