package conns

import (
	"testing"
	"time"
)

// Users are remembered by name regardless of case (names are unique
// regardless of case), with their clock offset; a nil CreatedUsers
// remembers nothing.
func TestCreatedUsers(t *testing.T) {
	var none *CreatedUsers
	none.Add("kim", time.Second)
	if _, ok := none.Created("kim"); ok {
		t.Error("a nil CreatedUsers remembered a user")
	}
	c := &CreatedUsers{}
	if _, ok := c.Created("kim"); ok {
		t.Error("remembered a user never added")
	}
	c.Add("Kim", 3*time.Second)
	if off, ok := c.Created("kIM"); !ok || off != 3*time.Second {
		t.Errorf("Created(kIM) = %v, %v; want 3s, true", off, ok)
	}
}
