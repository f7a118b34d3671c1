package identity

import (
	"strings"
	"testing"
	"time"
)

// TestDecodeResult: the result element is found among the root's children
// wherever it stands, and a missing or malformed answer is an error.
func TestDecodeResult(t *testing.T) {
	t.Parallel()
	type result struct {
		UserName string    `xml:"User>UserName"`
		Created  time.Time `xml:"User>CreateDate"`
	}
	const ns = ` xmlns="https://identity.cloud.example/doc/2010-05-08/"`
	for name, tc := range map[string]struct {
		body, want, wantErr string
	}{
		"result first": {
			body: `<GetUserResponse` + ns + `><GetUserResult><User><UserName>ann</UserName><CreateDate>2025-01-01T00:00:00Z</CreateDate></User></GetUserResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></GetUserResponse>`,
			want: "ann",
		},
		"result after metadata": {
			body: `<?xml version="1.0"?>` + "\n" + `<GetUserResponse><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata><GetUserResult><User><UserName>bob</UserName></User></GetUserResult></GetUserResponse>`,
			want: "bob",
		},
		"the first of two results": {
			body: `<GetUserResponse><GetUserResult><User><UserName>ann</UserName></User></GetUserResult><GetUserResult><User><UserName>bob</UserName></User></GetUserResult></GetUserResponse>`,
			want: "ann",
		},
		"no result": {
			body:    `<GetUserResponse><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></GetUserResponse>`,
			wantErr: "identity GetUser: answer has no GetUserResult element",
		},
		"a result below the root's children is not the answer's": {
			body:    `<GetUserResponse><Other><GetUserResult><User><UserName>ann</UserName></User></GetUserResult></Other></GetUserResponse>`,
			wantErr: "identity GetUser: answer has no GetUserResult element",
		},
		"another action's result": {
			body:    `<ListUsersResponse><ListUsersResult/></ListUsersResponse>`,
			wantErr: "identity GetUser: answer has no GetUserResult element",
		},
		"empty body": {
			body:    ``,
			wantErr: "identity GetUser: decoding answer: EOF",
		},
		"not closed": {
			body:    `<GetUserResponse><GetUserResult><User><UserName>ann</UserName></User></GetUserResult>`,
			wantErr: "identity GetUser: decoding answer:",
		},
		"malformed after the result": {
			body:    `<GetUserResponse><GetUserResult><User><UserName>ann</UserName></User></GetUserResult><ResponseMetadata></GetUserResponse>`,
			wantErr: "identity GetUser: decoding answer:",
		},
		"a value that does not decode": {
			body:    `<GetUserResponse><GetUserResult><User><CreateDate>yesterday</CreateDate></User></GetUserResult></GetUserResponse>`,
			wantErr: "identity GetUser: decoding result:",
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out result
			err := decodeResult("GetUser", []byte(tc.body), &out)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one starting %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || out.UserName != tc.want {
				t.Fatalf("got %q, %v; want %q", out.UserName, err, tc.want)
			}
		})
	}
}
