package rules

import "regexp"

// RoleSessionName is the name of a role session, AssumeRole's and
// AssumeRoleWithWebIdentity's RoleSessionName (the token service's rule;
// the spec does not show the service): 2 to 64 letters, digits and
// +=,.@_-, the length in the form as the service writes it.
var RoleSessionName = Value{Form: &Form{
	Re:      regexp.MustCompile(`^[\w+=,.@-]{2,64}$`),
	Must:    "must be 2 to 64 letters, digits or +=,.@_-",
	Example: "terraform",
}}

// RoleSessionSeconds is a role session's length in seconds, AssumeRole's
// and AssumeRoleWithWebIdentity's DurationSeconds: 15 minutes to 12 hours
// (the role's maximum may be less).
var RoleSessionSeconds = Value{Range: between(900, 43200)}

// ExternalID is AssumeRole's ExternalId, which a role's trust policy may
// require: 2 to 1224 letters, digits and +=,.@:/_-.
var ExternalID = Value{Length: between(2, 1224), Form: &Form{
	Re:      regexp.MustCompile(`^[\w+=,.@:/-]+$`),
	Must:    "must be letters, digits or +=,.@:/_-",
	Example: "ci-external-id",
}}

// WebIdentityToken is AssumeRoleWithWebIdentity's WebIdentityToken, an
// OpenID Connect token: 4 to 20000 characters, ASCII (a JWT), so both
// sides count bytes; its signature and claims are the service's to
// verify, no value rule.
var WebIdentityToken = Value{Length: between(4, 20000)}
