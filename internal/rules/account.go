package rules

import "regexp"

// AccountID is an account's id, as a resource identity's account_id names
// it and an ARN's account field holds it: 12 digits.
var AccountID = Value{Form: &Form{
	Re:      regexp.MustCompile(`^\d{12}$`),
	Must:    "must be 12 digits",
	Example: "123456789012",
}}
