package validators

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestHTTPURL(t *testing.T) {
	t.Parallel()
	v := HTTPURL("Invalid Endpoint", func(p path.Path, value string, problem error) string {
		return fmt.Sprintf("%s = %q %s.", p, value, problem)
	})
	for _, tc := range []struct{ in, want string }{
		{"https://search.us-east-1.cloud.example", ""},
		{"http://127.0.0.1:8080/prefix", ""},
		{"HTTPS://Search.example", "must start with http:// or https://"},
		{"Http://x", "must start with http:// or https://"},
		{"127.0.0.1:8080", `endpoints.search = "127.0.0.1:8080" must start with http:// or https://.`},
		{"ftp://x", "must start with http:// or https://"},
		{"http://[::1", "is not a URL"},
		{"http:///path", "has no host"},
		{"http://x?a=b", "must not have a query or fragment"},
		{"http://x#top", "must not have a query or fragment"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			var resp validator.StringResponse
			v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("endpoints").AtName("search"), ConfigValue: types.StringValue(tc.in)}, &resp)
			checkDiag(t, resp.Diagnostics.Errors(), tc.want)
			if tc.want != "" && resp.Diagnostics.Errors()[0].Summary() != "Invalid Endpoint" {
				t.Errorf("summary %q", resp.Diagnostics.Errors()[0].Summary())
			}
		})
	}
}

// TestAnyCaseHTTPURL holds runtime_url's rule: url.Parse, an http or https
// scheme in any case, a host, and no query or fragment.
func TestAnyCaseHTTPURL(t *testing.T) {
	t.Parallel()
	v := AnyCaseHTTPURL("Invalid Runtime URL", func(_ path.Path, value string, _ error) string {
		return fmt.Sprintf("%q bad", value)
	})
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"https://runtime.example", true},
		{"http://127.0.0.1:8080/region/us-east-1", true},
		{"HTTPS://Runtime.example", true},
		{"Http://x", true},
		{"127.0.0.1:8080", false},
		{"ftp://x", false},
		{"http://[::1", false},
		{"http:///path", false},
		{"http:/x", false},
		{"http://x?a=b", false},
		{"http://x#top", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			var resp validator.StringResponse
			v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("runtime_url"), ConfigValue: types.StringValue(tc.in)}, &resp)
			if got := !resp.Diagnostics.HasError(); got != tc.ok {
				t.Fatalf("accepted = %v, want %v: %v", got, tc.ok, resp.Diagnostics)
			}
			if !tc.ok && resp.Diagnostics.Errors()[0].Detail() != fmt.Sprintf("%q bad", tc.in) {
				t.Errorf("detail %q", resp.Diagnostics.Errors()[0].Detail())
			}
		})
	}
}

func TestDuration(t *testing.T) {
	t.Parallel()
	v := Duration{
		Min: time.Minute, Max: time.Hour, Summary: "Invalid Wait", RangeSummary: "Wait Out of Range",
		NotDuration: func(v string) string { return fmt.Sprintf("%q is no duration.", v) },
		OutOfRange:  func(v string) string { return fmt.Sprintf("%q is not from 1m to 1h.", v) },
	}
	for _, tc := range []struct {
		in, summary, detail string
		want                time.Duration
	}{
		{"1m", "", "", time.Minute},
		{"90s", "", "", 90 * time.Second},
		{"1h", "", "", time.Hour},
		{"soon", "Invalid Wait", `"soon" is no duration.`, 0},
		{"59s", "Wait Out of Range", `"59s" is not from 1m to 1h.`, 0},
		{"61m", "Wait Out of Range", `"61m" is not from 1m to 1h.`, 0},
	} {
		d, summary, detail := v.Parse(tc.in)
		if d != tc.want || summary != tc.summary || detail != tc.detail {
			t.Errorf("Parse(%q) = %s, %q, %q; want %s, %q, %q", tc.in, d, summary, detail, tc.want, tc.summary, tc.detail)
		}
	}
	v.RangeSummary = ""
	if _, summary, _ := v.Parse("2h"); summary != "Invalid Wait" {
		t.Errorf("without RangeSummary, out of range is titled %q, want the Summary", summary)
	}
}

func TestRegion(t *testing.T) {
	t.Parallel()
	for in, ok := range map[string]bool{"us-east-1": true, "eu-central-2": true, "ap-south-east-10": true, "Mars": false, "us-east": false, "US-EAST-1": false} {
		var resp validator.StringResponse
		Region().ValidateString(context.Background(), validator.StringRequest{Path: path.Root("region"), ConfigValue: types.StringValue(in)}, &resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("region %q: errors %v, want ok %t", in, resp.Diagnostics, ok)
		}
	}
}
