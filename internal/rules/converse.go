package rules

import "regexp"

// The model runtime's Converse request: the spec shows its members (a
// model id in the path, messages of text blocks) but no limits; these are
// the project's decisions, documented in contributing/design.md ("Value
// rules").
var (
	// ModelID is a model or inference profile identifier.
	ModelID = Value{Length: between(1, 2048), Form: &Form{
		Re:      regexp.MustCompile(`^[A-Za-z0-9._:/+-]+$`),
		Must:    "must be letters, digits and ._:/+-",
		Example: "anthropic.claude-v2",
	}}
	// MessageText is the text of one content block, such as the prompt:
	// 1 to 100000 characters.
	MessageText = Value{Length: between(1, 100000)}
)
