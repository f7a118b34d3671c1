package search

import (
	"encoding/json"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// errorKinds maps the service's error types (the spec's table, plus the
// authentication and throttling errors every signed service may answer) to
// the shared sentinels.
var errorKinds = map[string]error{
	"ResourceNotFoundException":           client.ErrNotFound,
	"ValidationException":                 client.ErrValidation,
	"LimitExceededException":              client.ErrLimitExceeded,
	"InvalidTypeException":                client.ErrInvalidType,
	"DisabledOperationException":          client.ErrDisabledOperation,
	"BaseException":                       client.ErrBase,
	"InternalException":                   client.ErrInternal,
	"ThrottlingException":                 client.ErrThrottled,
	"UnrecognizedClientException":         client.ErrAuthentication,
	"InvalidSignatureException":           client.ErrAuthentication,
	"IncompleteSignatureException":        client.ErrAuthentication,
	"MissingAuthenticationTokenException": client.ErrAuthentication,
	"ExpiredTokenException":               client.ErrAuthentication,
	"AccessDeniedException":               client.ErrAccessDenied,
}

// decodeError turns an error answer into *client.APIError. The type comes
// from the body's __type, else the X-Amzn-ErrorType header; either may be
// qualified ("namespace#Name") or carry a suffix (":http://...").
func decodeError(op string, resp *client.Response) error {
	var body struct {
		Type     string `json:"__type"`
		Code     string `json:"code"`
		Message  string `json:"message"`
		MessageU string `json:"Message"`
	}
	_ = json.Unmarshal(resp.Body, &body)
	code := body.Type
	if code == "" {
		code = body.Code
	}
	if code == "" {
		code = resp.Header.Get("X-Amzn-ErrorType")
	}
	code = errorName(code)
	msg := body.Message
	if msg == "" {
		msg = body.MessageU
	}
	e := &client.APIError{
		Service:    SigningName,
		Operation:  op,
		StatusCode: resp.StatusCode,
		Code:       code,
		Message:    msg,
		RequestID:  resp.Header.Get("X-Amzn-RequestId"),
	}
	if e.Code == "" {
		e.Code = client.StatusCode(resp.StatusCode)
	}
	if e.Message == "" {
		e.Message = "the service answered without a readable error message"
	}
	if k, ok := errorKinds[code]; ok {
		e.Kind = k
	} else {
		e.Kind = client.KindForStatus(resp.StatusCode)
	}
	return e
}

// errorName strips a namespace prefix and any ":" suffix from an error type.
func errorName(s string) string {
	if i := strings.LastIndex(s, "#"); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.Index(s, ":"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
