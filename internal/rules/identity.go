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
	// UserPathPrefix is ListUsers' PathPrefix: the beginning of the users'
	// paths to list (IAM's rule: 1 to 512 printable ASCII characters
	// beginning with /).
	UserPathPrefix = Value{Length: between(1, 512), Form: &Form{
		Re:      regexp.MustCompile(`^/[\x21-\x7E]*$`),
		Must:    "must begin with / and hold only printable ASCII characters",
		Example: "/apps/",
	}}
	// ServiceName is the form of a service's name in a service-specific
	// credential's ServiceName; which services take such credentials is
	// each side's list (the emulator's written from the spec), which
	// TestIdentityRulesAgree probes.
	ServiceName = Value{Length: between(3, 128), Form: &Form{
		Re:      regexp.MustCompile(`^[a-z0-9-]+(\.[a-z0-9-]+)+$`),
		Must:    "must be a service name such as models.cloud.example",
		Example: "models.cloud.example",
	}}
	// CredentialID is a service-specific credential's id
	// (ServiceSpecificCredentialId): 20 to 128 letters and digits, the
	// length in the form as the service writes it.
	CredentialID = Value{Form: &Form{
		Re:      regexp.MustCompile(`^\w{20,128}$`),
		Must:    "must be 20 to 128 letters and digits, such as ACCAEXAMPLE234567ABCDE",
		Example: "ACCAEXAMPLE234567ABCDE",
	}}
	// CredentialAgeDays is a long-term key's lifetime in days, chosen at
	// its creation (IAM's range): the one home of its bounds.
	CredentialAgeDays = Value{Range: between(1, 36600)}
)

// MaxListItems is the most items one page of the identity service's
// listings holds (IAM's MaxItems): the provider asks for pages this large.
const MaxListItems = 1000

// ListMaxItems is a listing's MaxItems: 1 to MaxListItems.
var ListMaxItems = Value{Range: between(1, MaxListItems)}
