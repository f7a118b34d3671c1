package runtime

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
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
	msgs, aerr := readMessages(r)
	if aerr != nil {
		return nil, aerr
	}
	last, inputTokens, aerr := lastUserText(msgs)
	if aerr != nil {
		return nil, aerr
	}
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
	return b, nil
}

// converseInvalid is the ValidationException of a Converse request.
func converseInvalid(msg string) *apiError {
	return &apiError{http.StatusBadRequest, "ValidationException", msg}
}

// readMessages reads a Converse request's non-empty messages array.
func readMessages(r *http.Request) ([]message, *apiError) {
	// The spec's request carries Content-Type: application/json.
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, converseInvalid(fmt.Sprintf("The request needs the header Content-Type: application/json, not %q.", r.Header.Get("Content-Type")))
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, converseInvalid("The request body could not be read.")
	}
	var in struct {
		Messages *[]message `json:"messages"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, converseInvalid("The request body is not valid JSON: " + err.Error())
	}
	if in.Messages == nil || len(*in.Messages) == 0 {
		return nil, converseInvalid("The request body needs a non-empty messages array.")
	}
	return *in.Messages, nil
}

// lastUserText checks each message (a user or assistant role, text
// blocks) and the last one's role (user); it returns the last user text
// and the input's word count.
func lastUserText(msgs []message) (last string, inputTokens int, _ *apiError) {
	for i, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			return "", 0, converseInvalid("messages[" + strconv.Itoa(i) + "].role must be user or assistant.")
		}
		if len(m.Content) == 0 {
			return "", 0, converseInvalid("messages[" + strconv.Itoa(i) + "].content must hold at least one block.")
		}
		for j, c := range m.Content {
			if c.Text == nil {
				return "", 0, converseInvalid("messages[" + strconv.Itoa(i) + "].content[" + strconv.Itoa(j) + "] needs text.")
			}
			inputTokens += len(strings.Fields(*c.Text))
			if m.Role == "user" {
				last = *c.Text
			}
		}
	}
	if msgs[len(msgs)-1].Role != "user" {
		return "", 0, converseInvalid("The last message must have the role user.")
	}
	return last, inputTokens, nil
}
