package identity

import (
	"net/url"
	"testing"
)

// TestFormBody: the action and version, then the parameters, escaped; the
// service reads the same form as url.Values.Encode of all of them.
func TestFormBody(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		params url.Values
		want   string
	}{
		{nil, "Action=GetUser&Version=2010-05-08"},
		{url.Values{"UserName": {"ann"}}, "Action=GetUser&Version=2010-05-08&UserName=ann"},
		{url.Values{"UserName": {"a b&c=d"}, "Marker": {"m/+"}}, "Action=GetUser&Version=2010-05-08&Marker=m%2F%2B&UserName=a+b%26c%3Dd"},
	} {
		got := string(formBody(getUser, tc.params))
		if got != tc.want {
			t.Errorf("formBody(%v) = %q, want %q", tc.params, got, tc.want)
		}
		parsed, err := url.ParseQuery(got)
		if err != nil {
			t.Fatal(err)
		}
		want := url.Values{"Action": {"GetUser"}, "Version": {apiVersion}}
		for k, v := range tc.params {
			want[k] = v
		}
		if parsed.Encode() != want.Encode() {
			t.Errorf("formBody(%v) reads as %v, want %v", tc.params, parsed, want)
		}
	}
}
