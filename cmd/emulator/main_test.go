package main

import (
	"testing"
	"time"
)

func TestUntilTimeOfDay(t *testing.T) {
	t.Parallel()
	day := func(h, m int) time.Time { return time.Date(2026, 11, 23, h, m, 0, 0, time.UTC) }
	for _, tc := range []struct {
		now  time.Time
		at   string
		want time.Duration
	}{
		{day(21, 30), "02:00", 4*time.Hour + 30*time.Minute},
		{day(1, 0), "02:00", time.Hour},
		{day(2, 0), "02:00", 0},
		{day(2, 1), "02:00", 23*time.Hour + 59*time.Minute},
	} {
		got, err := untilTimeOfDay(tc.now, tc.at)
		if err != nil || got != tc.want {
			t.Errorf("untilTimeOfDay(%s, %s) = %s, %v; want %s", tc.now.Format("15:04"), tc.at, got, err, tc.want)
		}
	}
	if _, err := untilTimeOfDay(day(0, 0), "2am"); err == nil {
		t.Error("2am accepted")
	}
}
