package privatestate

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// store is a private state in memory.
type store map[string][]byte

func (s store) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) { return s[key], nil }

func (s store) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	if len(value) == 0 {
		delete(s, key)
		return nil
	}
	s[key] = value
	return nil
}

func TestGetSetForget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type note struct {
		Change string `json:"change"`
	}
	s := store{}
	var got note
	if Get(ctx, s, "k", &got) {
		t.Fatal("Get of an absent key reports a value")
	}
	if d := Set(ctx, s, "k", note{Change: "c1"}); d.HasError() {
		t.Fatal(d)
	}
	if string(s["k"]) != `{"change":"c1"}` {
		t.Errorf("Set stored %s", s["k"])
	}
	if !Get(ctx, s, "k", &got) || got.Change != "c1" {
		t.Errorf("Get = %+v", got)
	}
	s["k"] = []byte("not json")
	if Get(ctx, s, "k", &got) {
		t.Error("Get of a value that is not JSON reports a value")
	}
	s["k"] = []byte(`{"change":"c1"}`)
	if d := Set(ctx, s, "k", func() {}); d.HasError() {
		t.Fatal(d)
	}
	if _, ok := s["k"]; ok {
		t.Error("Set of a value JSON cannot encode kept the older value")
	}
	s["k"] = []byte(`{"change":"c1"}`)
	if d := Forget(ctx, s, "k"); d.HasError() {
		t.Fatal(d)
	}
	if _, ok := s["k"]; ok {
		t.Error("Forget kept the key")
	}
}
