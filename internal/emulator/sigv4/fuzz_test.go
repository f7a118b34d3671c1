package sigv4_test

import (
	"context"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// FuzzVerifyBearer: the emulator's verifier never panics on any token, a
// token it accepts names a known key, and only the untouched token of a
// known key is accepted.
func FuzzVerifyBearer(f *testing.F) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cred := sigv4.Credential{AccessKeyID: "AKIDEXAMPLE000000001", SecretAccessKey: "fuzz-secret", Principal: "arn:cloud:identity::123456789012:user/fuzz", Account: "123456789012"}
	store := sigv4.NewStore(cred)
	good, err := models.GenerateToken(context.Background(), models.TokenRequest{
		Host: models.DefaultHost("us-east-1"), Region: "us-east-1",
		Credentials: client.Credentials{AccessKeyID: cred.AccessKeyID, SecretAccessKey: cred.SecretAccessKey},
		ExpiresIn:   time.Hour, Now: now,
	})
	if err != nil {
		f.Fatal(err)
	}
	if _, verr := store.VerifyBearer(good.Value, now.Add(time.Minute)); verr != nil {
		f.Fatalf("the seed token does not verify: %v", verr)
	}
	f.Add(good.Value)
	f.Add(good.Value[:len(good.Value)-4])
	f.Add(models.TokenPrefix)
	f.Add("models-api-key-aGVsbG8=")
	f.Add("")
	f.Fuzz(func(t *testing.T, token string) {
		bt, verr := store.VerifyBearer(token, now.Add(time.Minute))
		if verr != nil {
			if verr.Condition == "" || verr.Message == "" {
				t.Fatalf("an error without condition or message: %+v", verr)
			}
			return
		}
		if bt == nil {
			t.Fatal("accepted without a token")
		}
		if bt.AccessKeyID != cred.AccessKeyID {
			t.Fatalf("accepted a token of key %q", bt.AccessKeyID)
		}
	})
}
