package models

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// errorKinds maps the runtime's error types to the shared sentinels.
var errorKinds = map[string]error{
	"AccessDeniedException":               client.ErrAccessDenied,
	"UnrecognizedClientException":         client.ErrAuthentication,
	"InvalidSignatureException":           client.ErrAuthentication,
	"ExpiredTokenException":               client.ErrAuthentication,
	"MissingAuthenticationTokenException": client.ErrAuthentication,
	"ValidationException":                 client.ErrValidation,
	"ResourceNotFoundException":           client.ErrNotFound,
	"ThrottlingException":                 client.ErrThrottled,
	"InternalException":                   client.ErrInternal,
	"InternalServerException":             client.ErrInternal,
}

// decodeError turns an error answer into *client.APIError whose Message is
// the runtime's own words (such as "Credential should be scoped to a valid
// region"). A type it does not know is classified by status.
func decodeError(op string, resp *client.Response) error {
	var body struct {
		Type     string `json:"__type"`
		Message  string `json:"message"`
		MessageU string `json:"Message"`
	}
	_ = json.Unmarshal(resp.Body, &body)
	code := body.Type
	if code == "" {
		code = resp.Header.Get("X-Amzn-ErrorType")
	}
	if i := strings.LastIndex(code, "#"); i >= 0 {
		code = code[i+1:]
	}
	if i := strings.Index(code, ":"); i >= 0 {
		code = code[:i]
	}
	e := &client.APIError{
		Service:    ServiceName,
		Operation:  op,
		StatusCode: resp.StatusCode,
		Code:       code,
		Message:    body.Message,
		RequestID:  resp.Header.Get("X-Amzn-RequestId"),
	}
	if e.Message == "" {
		e.Message = body.MessageU
	}
	if e.Code == "" {
		e.Code = http.StatusText(resp.StatusCode)
	}
	if e.Message == "" {
		e.Message = "the runtime answered without a readable error message"
	}
	if k, ok := errorKinds[code]; ok {
		e.Kind = k
	} else {
		e.Kind = client.KindForStatus(resp.StatusCode)
	}
	return e
}
