package main

import "testing"

// TestNewEstate: the estate, 500 users, has 1,000 keys and 300
// policy attachments; the scale run's, 5,000 users, ten times as many.
func TestNewEstate(t *testing.T) {
	t.Parallel()
	for users, want := range map[int]estateShape{
		500:  {users: 500, keys: 1000, attachments: 300},
		5000: {users: 5000, keys: 10000, attachments: 3000},
	} {
		if got := newEstate(users); got != want {
			t.Errorf("newEstate(%d) = %+v, want %+v", users, got, want)
		}
	}
}

// TestCountSummary: the fewest calls read like the calls made, most
// first.
func TestCountSummary(t *testing.T) {
	t.Parallel()
	got := countSummary(map[string]int{"GetUser": 2, "ListUsers": 1, "ListUserTags": 2})
	if want := "5: GetUser 2, ListUserTags 2, ListUsers 1"; got != want {
		t.Errorf("countSummary = %q, want %q", got, want)
	}
}
