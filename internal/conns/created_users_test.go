package conns

import (
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// Users are remembered by name regardless of case (names are unique
// regardless of case), with the service's clock, which runs on from its
// reading; a nil CreatedUsers remembers nothing.
func TestCreatedUsers(t *testing.T) {
	var none *CreatedUsers
	none.Add("kim", client.ClockRead(time.Now()))
	if _, ok := none.Created("kim"); ok {
		t.Error("a nil CreatedUsers remembered a user")
	}
	c := &CreatedUsers{}
	if _, ok := c.Created("kim"); ok {
		t.Error("remembered a user never added")
	}
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	c.Add("Kim", client.ClockRead(at))
	clock, ok := c.Created("kIM")
	if now := clock.Now(); !ok || now.Before(at) || now.After(at.Add(time.Minute)) {
		t.Errorf("Created(kIM) = %v (now %v), %v; want a clock from %v, true", clock, now, ok, at)
	}
}
