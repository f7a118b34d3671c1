package runtime

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

type message struct {
	Role    string `json:"role"`
	Content []struct {
		Text *string `json:"text"`
	} `json:"content"`
}

// converse answers deterministically: the model echoes the last user text.
// Token counts are word counts.
func converse(r *http.Request) ([]byte, *apiError) {
	// The spec's request carries Content-Type: application/json.
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, &apiError{http.StatusBadRequest, "ValidationException", fmt.Sprintf("The request needs the header Content-Type: application/json, not %q.", r.Header.Get("Content-Type"))}
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, &apiError{http.StatusBadRequest, "ValidationException", "The request body could not be read."}
	}
	var in struct {
		Messages *[]message `json:"messages"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, &apiError{http.StatusBadRequest, "ValidationException", "The request body is not valid JSON: " + err.Error()}
	}
	if in.Messages == nil || len(*in.Messages) == 0 {
		return nil, &apiError{http.StatusBadRequest, "ValidationException", "The request body needs a non-empty messages array."}
	}
	// The messages are checked in order: a user or assistant role, text
	// blocks; the last user text is the answer.
	var last string
	inputTokens := 0
	for i, m := range *in.Messages {
		if aerr := checkMessage(i, m); aerr != nil {
			return nil, aerr
		}
		for _, c := range m.Content {
			inputTokens += len(strings.Fields(*c.Text))
			if m.Role == "user" {
				last = *c.Text
			}
		}
	}
	if (*in.Messages)[len(*in.Messages)-1].Role != "user" {
		return nil, &apiError{http.StatusBadRequest, "ValidationException", "The last message must have the role user."}
	}
	return converseAnswer(last, inputTokens), nil
}

// checkMessage checks message i: a user or assistant role, and at least
// one block, each with text.
func checkMessage(i int, m message) *apiError {
	if m.Role != "user" && m.Role != "assistant" {
		return &apiError{http.StatusBadRequest, "ValidationException", "messages[" + strconv.Itoa(i) + "].role must be user or assistant."}
	}
	if len(m.Content) == 0 {
		return &apiError{http.StatusBadRequest, "ValidationException", "messages[" + strconv.Itoa(i) + "].content must hold at least one block."}
	}
	for j, c := range m.Content {
		if c.Text == nil {
			return &apiError{http.StatusBadRequest, "ValidationException", "messages[" + strconv.Itoa(i) + "].content[" + strconv.Itoa(j) + "] needs text."}
		}
		if err := rules.MessageText.CheckString(*c.Text); err != nil {
			return &apiError{http.StatusBadRequest, "ValidationException", "messages[" + strconv.Itoa(i) + "].content[" + strconv.Itoa(j) + "].text " + err.Error() + "."}
		}
	}
	return nil
}

// converseAnswer is the model's answer: the text last, as many output
// tokens as it has words.
func converseAnswer(last string, inputTokens int) []byte {
	outputTokens := len(strings.Fields(last))
	out := map[string]any{
		"output": map[string]any{
			"message": map[string]any{"role": "assistant", "content": []map[string]string{{"text": last}}},
		},
		"stopReason": "end_turn",
		"usage":      map[string]int{"inputTokens": inputTokens, "outputTokens": outputTokens, "totalTokens": inputTokens + outputTokens},
		"metrics":    map[string]int{"latencyMs": 1},
	}
	b, _ := json.Marshal(out)
	return b
}
