package rules

import "regexp"

// The identity service's inputs that the provider sends (not shown in the
// spec: IAM's rules, decided in contributing/design.md).
var (
	// UserName is a user's name.
	UserName = Value{Length: between(1, 64), Form: &Form{
		Re:      regexp.MustCompile(`^[\w+=,.@-]+$`),
		Must:    "must contain only letters, digits and the characters +=,.@_-",
		Example: "alice",
	}}
	// UserPath is a user's path.
	UserPath = Value{Length: between(1, 512), Form: &Form{
		Re:      regexp.MustCompile(`^(/|/[\x21-\x7E]+/)$`),
		Must:    "must be / or begin and end with / and hold only printable ASCII characters",
		Example: "/team/",
	}}
	// PolicyARN is a managed policy's ARN: owned by an account or by the
	// cloud.
	PolicyARN = Value{Form: &Form{
		Re:      regexp.MustCompile(`^arn:cloud:identity::(\d{12}|cloud):policy/.+`),
		Must:    "must be a policy ARN such as arn:cloud:identity::cloud:policy/ModelsLimitedAccess",
		Example: "arn:cloud:identity::cloud:policy/ModelsLimitedAccess",
	}}
	// CredentialAgeDays is a long-term key's lifetime in days, chosen at
	// its creation (IAM's range): the one home of its bounds.
	CredentialAgeDays = Value{Range: between(1, 36600)}
)
