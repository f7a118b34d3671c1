package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	sc "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

// waitCase is one change the waits follow: how long it takes, and how many
// times faster than real time the emulator's clock runs meanwhile.
type waitCase struct {
	length time.Duration
	speed  float64
}

// waitResult is what one strategy saw of one change.
type waitResult struct {
	polls int
	lag   time.Duration
	err   error
}

// waits follows real changes of the emulator, its clock sped up, with our
// strategy and with the peer's (first poll after 60 s, then every 10 s).
func (b *bench) waits(ctx context.Context) error {
	c, err := sc.New(client.Config{
		Region:      b.emu.Region(),
		Credentials: client.Credentials{AccessKeyID: b.emu.AccessKeyID(), SecretAccessKey: b.emu.SecretAccessKey()},
		MaxRetries:  -1,
	}, b.srv.URL)
	if err != nil {
		return err
	}
	for _, tc := range []waitCase{{5 * time.Second, 5}, {time.Minute, 10}, {15 * time.Minute, 60}} {
		res, err := b.waitBoth(ctx, c, tc)
		if err != nil {
			return err
		}
		fmt.Printf("| Wait, %s dynamic change (clock ×%g): lag / polls | %s / %d | %s / %d (peer: 60 s, then every 10 s) | lag %s |\n",
			tc.length, tc.speed, res[0].lag.Round(10*time.Millisecond), res[0].polls, res[1].lag.Round(10*time.Millisecond), res[1].polls,
			ratio(res[0].lag, res[1].lag))
	}
	return nil
}

// waitBoth submits the same change to two domains and follows them at
// once, the first with our strategy, the second with the peer's.
func (b *bench) waitBoth(ctx context.Context, c *sc.Client, tc waitCase) ([2]waitResult, error) {
	var res [2]waitResult
	b.emu.Clock().SetSpeed(tc.speed)
	defer b.emu.Clock().SetSpeed(1)
	var wg sync.WaitGroup
	defer wg.Wait()
	for i, strategy := range []string{"ours", "peer"} {
		ch, err := b.submitChange(ctx, c, tc, strategy)
		if err != nil {
			return res, err
		}
		wg.Go(func() { res[i] = ch.follow(ctx, strategy == "peer") })
	}
	wg.Wait()
	for _, r := range res {
		if r.err != nil {
			return res, r.err
		}
	}
	return res, nil
}

// change is a domain change submitted for a strategy to follow.
type change struct {
	c          *sc.Client
	domain, id string
	submitted  time.Time
	now        func() time.Time // the emulator's clock
	speed      float64
}

// submitChange makes a domain for strategy whose changes take tc.length,
// and submits a change to it.
func (b *bench) submitChange(ctx context.Context, c *sc.Client, tc waitCase, strategy string) (change, error) {
	domain := fmt.Sprintf("bench-%s-%d", strategy, int(tc.length.Seconds()))
	if err := b.emu.Search.AddDomain(emusearch.DomainSpec{DomainName: domain}); err != nil {
		return change{}, err
	}
	if err := b.emu.Search.SetPace(emusearch.Pace{Dynamic: tc.length}); err != nil {
		return change{}, err
	}
	ch := change{c: c, domain: domain, submitted: b.emu.Clock().Now(), now: b.emu.Clock().Now, speed: tc.speed}
	out, err := c.UpdateDomainConfig(ctx, &sc.UpdateDomainConfigInput{DomainName: domain, Sections: map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 5}}})
	if err != nil {
		return change{}, err
	}
	ch.id = *out.DomainConfig.ChangeProgressDetails.ChangeId
	return ch, nil
}

// follow polls the change until it is complete, with our strategy
// (internal/poll) or the peer's, sleeping emulated time.
func (ch change) follow(ctx context.Context, peer bool) waitResult {
	var r waitResult
	next := poll.Next(poll.Observation{Now: ch.now(), Start: ch.submitted})
	if peer {
		next = time.Minute
	}
	for {
		time.Sleep(time.Duration(float64(next) / ch.speed))
		p, err := ch.c.DescribeDomainChangeProgress(ctx, ch.domain, ch.id)
		now := ch.now()
		r.polls++
		if err != nil {
			r.err = err
			return r
		}
		if p.Status != nil && *p.Status == sc.ChangeStatusCompleted {
			r.lag = now.Sub(p.LastUpdatedTime.Time())
			return r
		}
		next = 10 * time.Second
		if !peer {
			o := p.Observation(now)
			o.Waited = now.Sub(ch.submitted)
			next = poll.Next(o)
		}
	}
}
