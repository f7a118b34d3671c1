package diagnostics

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/smithy-go"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

func TestRemediesFor(t *testing.T) {
	t.Parallel()
	rs := Remedies{
		ByKind: []Remedy{
			{Match: func(err error) bool { return err.Error() == "special" }, Summary: "Special", Text: "by match"},
			{Kinds: []error{client.ErrThrottled, client.ErrInternal}, Text: "busy: {what}"},
			{Codes: []string{"AccessDenied"}, Summary: "Refused", Text: "{who} may not: {message}"},
		},
		Otherwise: Remedy{Summary: "Failed", Text: "otherwise ({code})"},
	}
	for _, tc := range []struct {
		name          string
		err           error
		fields        []string
		summary, text string
	}{
		{"a match function", errors.New("special"), nil, "Special", "by match"},
		{"a kind, wrapped", fmt.Errorf("read: %w", &client.APIError{Kind: client.ErrInternal}), []string{"what", "the domain"}, "", "busy: the domain"},
		{"an SDK error code fills {message}", fmt.Errorf("op: %w", &smithy.GenericAPIError{Code: "AccessDenied", Message: "no {who} here"}), []string{"who", "role/ci"}, "Refused", "role/ci may not: no {who} here"},
		{"otherwise, with the code", &smithy.GenericAPIError{Code: "Odd"}, nil, "Failed", "otherwise (Odd)"},
		{"otherwise, without fields", errors.New("plain"), nil, "Failed", "otherwise ({code})"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := rs.For(tc.err, tc.fields...)
			if r.Summary != tc.summary || r.Text != tc.text {
				t.Errorf("For = %q, %q; want %q, %q", r.Summary, r.Text, tc.summary, tc.text)
			}
		})
	}
}

// The tables keep the words users read (asserted by acceptance tests of
// their own); here, that each kind finds its remedy.
func TestReadAndRuntimeRemedies(t *testing.T) {
	t.Parallel()
	kind := func(k error) error { return &client.APIError{Kind: k} }
	for _, tc := range []struct {
		rs   Remedies
		err  error
		want string
	}{
		{readRemedies, kind(client.ErrAuthentication), "did not accept the provider's credentials"},
		{readRemedies, kind(client.ErrThrottled), "busy or failing"},
		{readRemedies, kind(client.ErrBase), "its message below says why"},
		{readRemedies, errors.New("connection refused"), "network access"},
		{runtimeRemedies, kind(client.ErrAccessDenied), "models:CallWithBearerToken"},
		{runtimeRemedies, kind(client.ErrNotFound), "Check model_id and prompt."},
		{runtimeRemedies, kind(client.ErrThrottled), "Try again later"},
	} {
		if got := tc.rs.For(tc.err).Text; !strings.Contains(got, tc.want) {
			t.Errorf("For(%v) = %q, want it to say %q", tc.err, got, tc.want)
		}
	}
}
