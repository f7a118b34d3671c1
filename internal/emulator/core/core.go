// Package core holds what the emulated services share: the clock, the
// authenticated caller, the service contract and the wire error writers.
package core

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"
)

// Clock is the emulator's time. Tests move it forward to reach key expiry or
// the end of a long change without waiting.
type Clock struct {
	mu     sync.Mutex
	offset time.Duration
	// Speed multiplies the passing of real time (1 when zero): at 60 one
	// real second is one emulated minute.
	speed float64
	base  time.Time
	at    time.Time
	// held stops the clock at at (plus offset) until it runs again: a test
	// looks at a change's stage for as long as it needs, however slow the
	// machine, and moves on with Advance.
	held bool
}

// The clock's bounds: time.Duration overflows past about 292 years, so the
// emulated time stays at most MaxSkew ahead of real time, and runs at most
// MaxSpeed times faster (at that speed MaxSkew is reached in about an hour;
// the clock then stops there).
const (
	MaxSkew  = 100 * 365 * 24 * time.Hour
	MaxSpeed = 1e6
)

// NewClock returns a clock at real time.
func NewClock() *Clock { return &Clock{} }

// Now is the emulated time, in UTC.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked(time.Now())
}

func (c *Clock) nowLocked(now time.Time) time.Time {
	if c.held {
		return c.at.Add(c.offset).UTC()
	}
	if c.speed > 0 && c.speed != 1 {
		passed := float64(now.Sub(c.base)) * c.speed
		if limit := float64(now.Add(MaxSkew).Sub(c.at)); passed > limit {
			passed = limit
		}
		return c.at.Add(time.Duration(passed)).Add(c.offset).UTC()
	}
	return now.Add(c.offset).UTC()
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

// TryAdvance moves the clock forward by d unless that puts it more than
// MaxSkew ahead of real time (the admin API's advance).
func (c *Clock) TryAdvance(d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if skew := c.nowLocked(now).Sub(now); d < 0 || d > MaxSkew || skew > MaxSkew-d {
		return fmt.Errorf("advancing by %s would put the clock more than %s ahead of real time", d, MaxSkew)
	}
	c.offset += d
	return nil
}

// Hold stops the clock where it is: only Advance moves it until SetSpeed
// or Reset runs it again.
func (c *Clock) Hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at, c.offset, c.held = c.nowLocked(time.Now()), 0, true
}

// Held reports whether the clock is held.
func (c *Clock) Held() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held
}

// TrySetSpeed is SetSpeed for a speed from outside (the admin API):
// finite, not negative, at most MaxSpeed.
func (c *Clock) TrySetSpeed(speed float64) error {
	if math.IsNaN(speed) || math.IsInf(speed, 0) || speed < 0 || speed > MaxSpeed {
		return fmt.Errorf("speed must be between 0 and %g, not %g", MaxSpeed, speed)
	}
	c.SetSpeed(speed)
	return nil
}

// SetSpeed makes emulated time pass speed times faster than real time,
// from where it is (a held clock runs again).
func (c *Clock) SetSpeed(speed float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	cur := c.nowLocked(now)
	c.offset, c.held = 0, false
	c.base, c.at, c.speed = now, cur, speed
	if speed <= 0 || speed == 1 {
		c.speed = 0
		c.offset = cur.Sub(now)
	}
}

// Set moves the clock to t (forward or back), held or running as it was.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += t.Sub(c.nowLocked(time.Now()))
}

// Reset puts the clock back to real time.
func (c *Clock) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset, c.speed, c.held = 0, 0, false
}

// Caller is the authenticated principal of a signed request.
type Caller struct {
	AccessKeyID string
	// Principal is the caller's ARN; policies attached to it apply.
	Principal string
	Account   string
	// Region is the region of the signature's credential scope.
	Region string
	// Session is true for temporary credentials (with a session token).
	Session bool
	// Authorized lists the actions the service authorized for this
	// request (allowed or refused), in order: the request log keeps them,
	// so tests derive from them the permissions an operation needs.
	Authorized []string
}

type callerKey struct{}

// WithCaller stores the caller in ctx.
func WithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller of a signed request, or nil.
func CallerFrom(ctx context.Context) *Caller {
	c, _ := ctx.Value(callerKey{}).(*Caller)
	return c
}

// Operation names a request for the log and for fault matching.
type Operation struct {
	Name   string
	DryRun bool
	// Unsigned operations authenticate otherwise (a web identity token),
	// so the emulator does not ask for a signature.
	Unsigned bool
	// Resource is what the request acts on where a fault may name it (the
	// search domain's name), else "".
	Resource string
}

// Protocol is how a service writes errors.
type Protocol int

const (
	// Query is the identity service's XML protocol.
	Query Protocol = iota
	// JSON is the REST/JSON protocol of the search service and the runtime.
	JSON
)

// Service is one emulated service.
type Service interface {
	http.Handler
	// Name is the service's name in the log and the admin API.
	Name() string
	// Match reports whether a request is this service's.
	Match(r *http.Request) bool
	// Classify names the request's operation; body is the whole request body.
	Classify(r *http.Request, body []byte) Operation
	// SigningName is the SigV4 signing name every request must be signed
	// with, or "" when the service authenticates otherwise.
	SigningName() string
	Protocol() Protocol
	// Reset forgets all state (the demo data comes back).
	Reset()
}

// AdminService is a service with admin routes, mounted at /_admin/<Name>/.
type AdminService interface {
	Admin() http.Handler
}
