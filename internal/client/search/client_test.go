package search

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

func testClient(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(client.Config{Region: "us-east-1", MaxRetries: -1, Credentials: client.Credentials{AccessKeyID: "AK", SecretAccessKey: "SK"}}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDecodeEveryErrorType(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body, header string
		status             int
		want               error
		code               string
	}{
		{"not found is 409", `{"__type":"ResourceNotFoundException","message":"m"}`, "", 409, client.ErrNotFound, "ResourceNotFoundException"},
		{"validation", `{"__type":"ValidationException","message":"m"}`, "", 400, client.ErrValidation, "ValidationException"},
		{"limit", `{"__type":"LimitExceededException","message":"m"}`, "", 409, client.ErrLimitExceeded, "LimitExceededException"},
		{"invalid type", `{"__type":"InvalidTypeException","message":"m"}`, "", 409, client.ErrInvalidType, "InvalidTypeException"},
		{"disabled", `{"__type":"DisabledOperationException","message":"m"}`, "", 409, client.ErrDisabledOperation, "DisabledOperationException"},
		{"base", `{"__type":"BaseException","message":"m"}`, "", 400, client.ErrBase, "BaseException"},
		{"internal", `{"__type":"InternalException","message":"m"}`, "", 500, client.ErrInternal, "InternalException"},
		{"throttling", `{"__type":"ThrottlingException","message":"m"}`, "", 429, client.ErrThrottled, "ThrottlingException"},
		{"unrecognized client", `{"__type":"UnrecognizedClientException","message":"m"}`, "", 403, client.ErrAuthentication, "UnrecognizedClientException"},
		{"invalid signature", `{"__type":"InvalidSignatureException","message":"m"}`, "", 403, client.ErrAuthentication, "InvalidSignatureException"},
		{"access denied", `{"__type":"AccessDeniedException","message":"m"}`, "", 403, client.ErrAccessDenied, "AccessDeniedException"},
		{"namespaced type", `{"__type":"com.cloud.search#ValidationException","message":"m"}`, "", 400, client.ErrValidation, "ValidationException"},
		{"header only", `{"message":"m"}`, "ResourceNotFoundException:http://internal/", 409, client.ErrNotFound, "ResourceNotFoundException"},
		{"unknown type by status 409", `{"__type":"BrandNewException","message":"m"}`, "", 409, client.ErrLimitExceeded, "BrandNewException"},
		{"unknown type by status 500", `{"__type":"BrandNewException"}`, "", 503, client.ErrInternal, "BrandNewException"},
		{"no body", ``, "", 404, client.ErrNotFound, "Not Found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := testClient(t, func(w http.ResponseWriter, _ *http.Request) {
				if tc.header != "" {
					w.Header().Set("X-Amzn-ErrorType", tc.header)
				}
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.body)
			})
			_, err := c.DescribeDomainConfig(context.Background(), "demo")
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			var ae *client.APIError
			if !errors.As(err, &ae) || ae.Code != tc.code || ae.StatusCode != tc.status || ae.Message == "" {
				t.Errorf("got %+v", ae)
			}
		})
	}
}

// A request carries exactly the members the caller set.
func TestRequestCarriesOnlySetMembers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   UpdateDomainConfigInput
		want string
	}{
		{"nothing", UpdateDomainConfigInput{DomainName: "demo"}, `{}`},
		{"one field of one section", UpdateDomainConfigInput{DomainName: "demo", Sections: map[string]any{"ClusterConfig": map[string]any{"InstanceCount": 6}}}, `{"ClusterConfig":{"InstanceCount":6}}`},
		{"false and zero are sent", UpdateDomainConfigInput{DomainName: "demo", DryRun: new(false), Sections: map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 0}}}, `{"DryRun":false,"SnapshotOptions":{"AutomatedSnapshotStartHour":0}}`},
		{"empty access policy is sent", UpdateDomainConfigInput{DomainName: "demo", Sections: map[string]any{"AccessPolicies": ""}}, `{"AccessPolicies":""}`},
		{"dry run members", UpdateDomainConfigInput{DomainName: "demo", DryRun: new(true), DryRunMode: new("Verbose"), AcceptedWarnings: []string{"A"}}, `{"AcceptedWarnings":["A"],"DryRun":true,"DryRunMode":"Verbose"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got string
			var path string
			c := testClient(t, func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				got, path = string(b), r.URL.Path
				_, _ = io.WriteString(w, `{"DomainConfig":{}}`)
			})
			in := tc.in
			if _, err := c.UpdateDomainConfig(context.Background(), &in); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("body (-want +got):\n%s", d)
			}
			if path != "/2021-01-01/search/domain/demo/config" {
				t.Errorf("path %s", path)
			}
		})
	}
}

func TestMarksDryRunsIdempotentAndSecretsSensitive(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in                    UpdateDomainConfigInput
		idempotent, sensitive bool
	}{
		{UpdateDomainConfigInput{DryRun: new(true)}, true, false},
		{UpdateDomainConfigInput{DryRun: new(false)}, false, false},
		{UpdateDomainConfigInput{}, false, false},
		{UpdateDomainConfigInput{Sections: map[string]any{"AdvancedSecurityOptions": map[string]any{"MasterUserOptions": map[string]any{"MasterUserPassword": "p"}}}}, false, true},
		{UpdateDomainConfigInput{Sections: map[string]any{"AdvancedSecurityOptions": map[string]any{"MasterUserOptions": map[string]any{"MasterUserName": "admin"}}}}, false, false},
	}
	for _, tc := range cases {
		in := tc.in
		got := [2]bool{in.DryRun != nil && *in.DryRun, in.carriesSecret()}
		if d := cmp.Diff([2]bool{tc.idempotent, tc.sensitive}, got); d != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.in, d)
		}
	}
}

func TestValidators(t *testing.T) {
	t.Parallel()
	for name, ok := range map[string]bool{"abc": true, "my-domain-1": true, "ab": false, "Abc": false, "1abc": false, "a_bc": false, "abcdefghijklmnopqrstuvwxyzab": true, "abcdefghijklmnopqrstuvwxyzabc": false} {
		if got := ValidDomainName(name) == nil; got != ok {
			t.Errorf("ValidDomainName(%q) = %v, want %v", name, got, ok)
		}
	}
	for id, ok := range map[string]bool{"0a1b2c3d-0000-4000-8000-00000000abcd": true, "0a1b2c3d00004000800000000000abcd": false, "0a1b2c3d-0000-4000-8000-00000000abcg": false} {
		if got := ValidID(id) == nil; got != ok {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, ok)
		}
	}
}

func TestDecodesResponseShapes(t *testing.T) {
	t.Parallel()
	body := `{"DomainConfig":{"EngineMode":{"Options":"GENERAL","Status":{"State":"Active","UpdateVersion":3,"CreationDate":1700000000.5}},
	"VPCOptions":{"Options":{"VPCId":"vpc-1","AvailabilityZones":["us-east-1a"]},"Status":{}},
	"ChangeProgressDetails":{"ChangeId":"0a1b2c3d-0000-4000-8000-00000000abcd","ConfigChangeStatus":"ApplyingChanges","StartTime":1700000000.5},
	"ModifyingProperties":[{"Name":"X","ActiveValue":"a","PendingValue":"b","ValueType":"PLAIN_TEXT"}]}}`
	c := testClient(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, body) })
	got, err := c.DescribeDomainConfig(context.Background(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"EngineMode", "VPCOptions"}, sortedKeys(got.Sections)); d != "" {
		t.Errorf("sections (-want +got):\n%s", d)
	}
	if string(got.Sections["EngineMode"].Options) != `"GENERAL"` || string(got.Sections["VPCOptions"].Options) != `{"VPCId":"vpc-1","AvailabilityZones":["us-east-1a"]}` {
		t.Errorf("options %s, %s", got.Sections["EngineMode"].Options, got.Sections["VPCOptions"].Options)
	}
	if id, status := got.RunningChange(); id != "0a1b2c3d-0000-4000-8000-00000000abcd" || status != "ApplyingChanges" {
		t.Errorf("running change %q %q", id, status)
	}
	if got.ChangeProgressDetails.StartTime.Time().Unix() != 1700000000 {
		t.Errorf("StartTime %v", got.ChangeProgressDetails.StartTime.Time())
	}
	if len(got.ModifyingProperties) != 1 || Deref(got.ModifyingProperties[0].PendingValue) != "b" {
		t.Errorf("ModifyingProperties %+v", got.ModifyingProperties)
	}
}

func TestDryRunProgressCarriesServiceClock(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := testClient(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Date", at.Format(http.TimeFormat))
		_, _ = io.WriteString(w, `{"DryRunConfig":{"DomainName":"demo","ModifyingProperties":[{"Name":"SnapshotOptions.AutomatedSnapshotStartHour","ActiveValue":"0","PendingValue":"3","ValueType":"PLAIN_TEXT"}]},"DryRunProgressStatus":{"DryRunStatus":"completed"}}`)
	})
	out, err := c.DescribeDryRunProgress(context.Background(), DescribeDryRunProgressInput{DomainName: "demo", LoadDryRunConfig: true})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Clock.At.Equal(at) {
		t.Errorf("Clock.At %v, want %v", out.Clock.At, at)
	}
	if string(out.DryRunConfig.Members["DomainName"]) != `"demo"` || len(out.DryRunConfig.ModifyingProperties) != 1 {
		t.Errorf("DryRunConfig %+v", out.DryRunConfig)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestListDomainNames: GET on the domain collection, the engine type as a
// query parameter, the answer's names sorted.
func TestListDomainNames(t *testing.T) {
	t.Parallel()
	var got *http.Request
	c := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		_, _ = io.WriteString(w, `{"DomainNames":[{"DomainName":"zeta","EngineType":"OpenSearch"},{"DomainName":"alpha","EngineType":"Elasticsearch"}]}`)
	})
	out, err := c.ListDomainNames(context.Background(), EngineTypeOpenSearch)
	if err != nil {
		t.Fatal(err)
	}
	if got.Method != http.MethodGet || got.URL.Path != "/2021-01-01/search/domain" || got.URL.RawQuery != "engineType=OpenSearch" {
		t.Errorf("request %s %s?%s, want GET /2021-01-01/search/domain?engineType=OpenSearch", got.Method, got.URL.Path, got.URL.RawQuery)
	}
	want := []DomainInfo{{DomainName: "alpha", EngineType: "Elasticsearch"}, {DomainName: "zeta", EngineType: "OpenSearch"}}
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("domains (-want +got):\n%s", d)
	}
}
