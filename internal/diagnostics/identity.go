package diagnostics

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// The identity service's remedies: the creates and deletes its resources
// send, by the kind of error the service answered with.

// KeyPolicyAdvice is what to do about a policy that refuses a key, at
// plan (the policy simulation) and at apply (the create) alike.
const KeyPolicyAdvice = "Ask for a key the policy allows (for example a shorter credential_age_days), or have an administrator change the policy."

// AddIdentityError adds to diags the remedy of rs for err under summary,
// on the attribute the remedy names (else on the resource), its
// placeholders filled from fields (see Remedies.For).
func AddIdentityError(diags *diag.Diagnostics, summary string, rs Remedies, err error, fields ...string) {
	r := rs.For(err, append(fields, "error", err.Error())...)
	if r.Attribute != "" {
		diags.AddAttributeError(path.Root(r.Attribute), summary, r.Text)
		return
	}
	diags.AddError(summary, r.Text)
}

// KeyCreate are the remedies for a refused CreateServiceSpecificCredential.
// Placeholders: {user}, {service}, {age} (the credential_age_days asked
// for, in words), {keys} (the user's keys and their marks, in words) and
// {error}.
var KeyCreate = Remedies{
	ByKind: []Remedy{
		{Kinds: []error{client.ErrAccessDenied}, Attribute: "credential_age_days", Text: "A policy of the principal Terraform runs as refuses a key for user {user} with {age} for {service}. " + KeyPolicyAdvice + "\n\n{error}"},
		{Kinds: []error{client.ErrLimitExceeded}, Attribute: "user_name", Text: "User {user} already holds the most keys the service allows for {service} (2 per user per service): {keys}. " +
			"A key no Terraform state holds (check each configuration that manages this user with terraform state list) is held by nobody: a key an interrupted run made and marked before Terraform saved it, the orphan of a create not recorded, or one made outside Terraform. " +
			"Bring such a key under Terraform with terraform import <address> {user}/<credential id> (its value is lost: set reset_triggers to get a new one), or delete it, before creating another.\n\n{error}"},
		{Kinds: []error{client.ErrNotFound}, Attribute: "user_name", Text: "User {user} does not exist. Create it first (for example reference cloud_identity_user.<name>.user_name so Terraform orders the two).\n\n{error}"},
		{Kinds: []error{client.ErrInvalidInput}, Attribute: "service_name", Text: "The service refused the request; its message names the field at fault.\n\n{error}"},
	},
	Otherwise: Remedy{Text: "Creating a key for user {user} failed: {error}"},
}

// PolicyAttach are the remedies for a refused AttachUserPolicy.
// Placeholders: {user}, {arn} and {error}.
var PolicyAttach = Remedies{
	ByKind: []Remedy{
		{Kinds: []error{client.ErrNotFound}, Text: "The user {user} or the policy {arn} does not exist. Check both names (create the user first, for example by referencing cloud_identity_user.<name>.user_name).\n\n{error}"},
		{Kinds: []error{client.ErrInvalidInput}, Attribute: "policy_arn", Text: "The service refused the policy ARN {arn}.\n\n{error}"},
		{Kinds: []error{client.ErrLimitExceeded}, Attribute: "user_name", Text: "User {user} already has as many policies attached as the service allows. Detach one first.\n\n{error}"},
	},
	Otherwise: Remedy{Text: "Attaching {arn} to user {user} failed: {error}"},
}

// UserDelete are the remedies for a refused DeleteUser. Placeholders:
// {user} and {error}.
var UserDelete = Remedies{
	ByKind: []Remedy{
		{Kinds: []error{client.ErrDeleteConflict}, Text: "User {user} still has attached policies or service-specific credentials (API keys), so the service refuses to delete it. Remove them first (destroy the resources that manage them), or set force_destroy = true and apply before destroying.\n\n{error}"},
	},
	Otherwise: Remedy{Text: "Deleting user {user} failed: {error}"},
}
