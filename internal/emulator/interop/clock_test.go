package interop_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/opensearch"
)

// The identity and search answers carry the emulator's clock in Date;
// aws-sdk-go-v2 corrects its clock skew by Date and signs its next request
// at that time. Once a test has moved the clock, those requests must still
// be accepted (they were refused as signed more than 15 minutes from real
// time, and went through only on the SDK's retry). Retries are off here so
// that a refused attempt is an error. After the first answer each SDK signs
// at the emulator's clock: were it to stop correcting its skew, the
// emulator's acceptance of real time would hide it, so the signing times
// are checked too.
func TestSDKFollowsTheEmulatorsClock(t *testing.T) {
	t.Parallel()
	s := start(t)
	ctx := context.Background()
	id := s.identity(func(o *iam.Options) { o.RetryMaxAttempts = 1 })
	search := s.search(func(o *opensearch.Options) { o.RetryMaxAttempts = 1 })
	s.Clock().Advance(2 * time.Hour)
	signedAtTheClock := func(call string, i int) {
		t.Helper()
		at, err := s.rec.signedAt()
		if err != nil {
			t.Errorf("%s call %d: X-Amz-Date: %v", call, i+1, err)
			return
		}
		if d := s.Clock().Now().Sub(at); i > 0 && (d > time.Minute || d < -time.Minute) {
			t.Errorf("%s call %d signed at %s, %s from the emulator's clock: the SDK did not correct its skew", call, i+1, at, d)
		}
	}
	for i := range 3 {
		if _, err := id.ListUsers(ctx, &iam.ListUsersInput{}); err != nil {
			t.Errorf("identity call %d, the clock 2 hours ahead: %v", i+1, err)
		}
		signedAtTheClock("identity", i)
		if _, err := search.DescribeDomainConfig(ctx, &opensearch.DescribeDomainConfigInput{DomainName: aws.String(domain)}); err != nil {
			t.Errorf("search call %d, the clock 2 hours ahead: %v", i+1, err)
		}
		signedAtTheClock("search", i)
	}
	for _, c := range s.Calls() {
		if c.Status != 200 {
			t.Errorf("%s %s answered %d", c.Service, c.Operation, c.Status)
		}
	}
}
