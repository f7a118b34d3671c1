package main

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	ic "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
)

// The estate rows: a team adopts what it made outside Terraform with
// terraform query -generate-config-out, then plans the generated
// configuration (every resource an import). The estate: users under one
// path, two keys each (every third Inactive, every fifth expired), a
// policy attached to three users in five, and estateDomains search
// domains. Each command runs on loopback and with a delay on every call;
// the query's target is that the delay adds at most 1.3x the calls' delay
// spread over list_concurrency (10) to its loopback time.

// estateDomains is how many search domains the estate holds.
const estateDomains = 11

// queryTarget bounds what a delay adds to the query: at most this many
// times calls x delay / 10.
const queryTarget = 1.3

// estateShape is the estate of users users.
type estateShape struct {
	users, keys, attachments int
}

func newEstate(users int) estateShape {
	e := estateShape{users: users, keys: 2 * users}
	for i := range users {
		if attached(i) {
			e.attachments++
		}
	}
	return e
}

// attached tells whether the estate's user i has a policy attached: three
// in five.
func attached(i int) bool { return i%5 < 3 }

// estatePath is the path every estate user is under.
const estatePath = "/estate/"

// seedEstate makes the estate in b.emu through the services' API with the
// emulator's own key, as a console user would (users, keys, attachments),
// and the domains through its admin API; then moves the clock on so that
// the short-lived keys have expired and every key is older than the
// minute within which an import holds back a key it may have made.
func (b *bench) seedEstate(ctx context.Context, e estateShape) error {
	c, err := ic.New(client.Config{
		Region:      b.emu.Region(),
		Credentials: client.Credentials{AccessKeyID: b.emu.AccessKeyID(), SecretAccessKey: b.emu.SecretAccessKey()},
	}, b.srv.URL)
	if err != nil {
		return err
	}
	one := func(i int) error {
		user := fmt.Sprintf("estate-%05d", i)
		if _, err := c.CreateUser(ctx, ic.CreateUserInput{UserName: user, Path: estatePath}); err != nil {
			return err
		}
		for k := range 2 {
			n := 2*i + k
			days := 365
			if n%5 == 0 {
				days = 1 // expired once the clock moves on
			}
			key, err := c.CreateServiceSpecificCredential(ctx, ic.CreateServiceSpecificCredentialInput{UserName: user, ServiceName: "models.cloud.example", CredentialAgeDays: days})
			if err != nil {
				return err
			}
			if n%3 == 0 {
				if err := c.UpdateServiceSpecificCredential(ctx, user, key.ServiceSpecificCredentialID, ic.StatusInactive); err != nil {
					return err
				}
			}
		}
		if attached(i) {
			return c.AttachUserPolicy(ctx, user, "arn:cloud:identity::cloud:policy/ModelsLimitedAccess")
		}
		return nil
	}
	// Eight at a time: the seeding is not what is measured.
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				if err := one(i); err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range e.users {
		next <- i
	}
	close(next)
	wg.Wait()
	if first != nil {
		return fmt.Errorf("seeding the estate: %w", first)
	}
	for i := range estateDomains {
		if err := b.emu.Search.AddDomain(emusearch.DomainSpec{DomainName: fmt.Sprintf("estate-%02d", i)}); err != nil {
			return err
		}
	}
	b.emu.Clock().Advance(48 * time.Hour)
	return nil
}

// estateQuery is the list blocks that find the whole estate, each limited
// to more than it holds (Terraform's default limit is 100).
func estateQuery(e estateShape) string {
	limit := 2 * e.keys
	return fmt.Sprintf(`
list "cloud_identity_user" "estate" {
  provider = cloud
  limit    = %[1]d
  config {
    path_prefix = %[2]q
  }
}

list "cloud_identity_service_specific_credential" "estate" {
  provider = cloud
  limit    = %[1]d
}

list "cloud_identity_user_policy_attachment" "estate" {
  provider = cloud
  limit    = %[1]d
}

list "cloud_search_domain_config" "estate" {
  provider = cloud
  limit    = %[1]d
}
`, limit, estatePath)
}

// estate measures the query and (unless queryOnly) the import plan of the
// estate of users users, on loopback and with delay on every call, with
// cli (a Terraform that has terraform query, 1.14 or later).
func (b *bench) estate(ctx context.Context, cli string, users int, delay time.Duration, queryOnly bool) error {
	e := newEstate(users)
	fmt.Printf("\nEstate: %d users under %s, %d keys (every third Inactive, every fifth expired), %d policy attachments, %d search domains (and the emulator's demo domain), made outside Terraform; list_concurrency 10, %s.\n\n",
		e.users, estatePath, e.keys, e.attachments, estateDomains, cli)
	fmt.Println("| Measure | Calls made (ours) | Fewest calls needed | Ours: wall; provider CPU; peak memory | Target |")
	fmt.Println("|---|---|---|---|---|")
	var loopback time.Duration
	delays := []time.Duration{0}
	if delay > 0 {
		delays = append(delays, delay)
	}
	for _, d := range delays {
		b.emu.Reset()
		if err := b.seedEstate(ctx, e); err != nil {
			return err
		}
		if d > 0 {
			if err := b.emu.InjectFault(emulator.Fault{Kind: emulator.FaultDelay, Delay: d, Times: -1}); err != nil {
				return err
			}
		}
		ws, err := b.workspace("estate")
		if err != nil {
			return err
		}
		ws.CLI = cli
		defer os.RemoveAll(ws.Dir)
		if err := ws.Write(b.providerBlock()); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(ws.Dir, "estate.tfquery.hcl"), []byte(estateQuery(e)), 0o600); err != nil {
			return err
		}
		on := "loopback"
		if d > 0 {
			on = fmt.Sprintf("%s a call", d)
		}

		q, calls, err := b.runLogged(ctx, b.emu, ws, "query", "-generate-config-out=generated.tf")
		if err != nil {
			return err
		}
		if err := noWrites(calls, "terraform query"); err != nil {
			return err
		}
		if err := allFound(ws.Dir, e.users+e.keys+e.attachments+len(b.emu.Search.DomainNames())); err != nil {
			return err
		}
		needed := queryCalls(e, b.emu)
		target := ""
		if d == 0 {
			loopback = q.wall
		} else {
			bound := loopback + time.Duration(queryTarget*float64(len(calls))*float64(d)/10)
			verdict := "met"
			if q.wall > bound {
				verdict = "missed"
			}
			target = fmt.Sprintf("≤ %s (loopback %s + 1.3 × %d calls × %s / 10): %s", secs(bound), secs(loopback), len(calls), d, verdict)
		}
		fmt.Printf("| terraform query -generate-config-out, %s | %s | %s | %s | %s |\n",
			on, callSummary(calls), countSummary(needed), q.latencyCell(), target)

		if queryOnly {
			continue
		}
		p, calls, err := b.runLogged(ctx, b.emu, ws, "plan", "-parallelism=10")
		if err != nil {
			return err
		}
		if err := noWrites(calls, "the import plan"); err != nil {
			return err
		}
		domains := len(b.emu.Search.DomainNames())
		fmt.Printf("| terraform plan of the generated configuration (%d imports), %s | %s | %s | %s | |\n",
			e.users+e.keys+e.attachments+domains, on, callSummary(calls), countSummary(importCalls(e, domains)), p.latencyCell())
	}
	return nil
}

// queryCalls are the fewest calls the query needs: a ListUsers page (of
// up to 1,000) for each list block that walks users, one listing of keys
// and of attachments per user of the account, the domains' names and
// each domain's configuration, and the caller's account once. The users
// and domains are the account's: the estate's and any the emulator starts
// with (its demo domain).
func queryCalls(e estateShape, emu *emulator.Emulator) map[string]int {
	users := len(emu.Identity.State().Users)
	pages := (users + 999) / 1000
	return map[string]int{
		"ListUsers": 2*pages + (e.users+999)/1000, "ListServiceSpecificCredentials": users, "ListAttachedUserPolicies": users,
		"ListDomainNames": 1, "DescribeDomainConfig": len(emu.Search.DomainNames()), "GetCallerIdentity": 1,
	}
}

// importCalls are the fewest calls the import plan needs: each user read
// once (GetUser), its keys listed and its tags read once (not once per
// key), each attachment's user's policies listed, each domain's
// configuration read, and the caller's account once.
func importCalls(e estateShape, domains int) map[string]int {
	return map[string]int{
		"GetUser": e.users, "ListServiceSpecificCredentials": e.users, "ListUserTags": e.users,
		"ListAttachedUserPolicies": e.attachments, "DescribeDomainConfig": domains, "GetCallerIdentity": 1,
	}
}

// countSummary is like callSummary, of counts by operation.
func countSummary(counts map[string]int) string {
	ops := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(counts[b]-counts[a], strings.Compare(a, b))
	})
	total := 0
	parts := make([]string, len(ops))
	for i, op := range ops {
		total += counts[op]
		parts[i] = fmt.Sprintf("%s %d", op, counts[op])
	}
	return fmt.Sprintf("%d: %s", total, strings.Join(parts, ", "))
}

// writeOperations are the calls that change something; a query and a plan
// make none.
var writeOperations = []string{
	"CreateUser", "DeleteUser", "TagUser", "UntagUser", "AttachUserPolicy", "DetachUserPolicy",
	"CreateServiceSpecificCredential", "UpdateServiceSpecificCredential", "ResetServiceSpecificCredential", "DeleteServiceSpecificCredential",
	"UpdateDomainConfig",
}

// allFound checks that the configuration the query generated in dir
// imports want resources: all the estate, none cut off by a limit.
func allFound(dir string, want int) error {
	gen, err := os.ReadFile(filepath.Join(dir, "generated.tf")) //nolint:gosec // G304: the bench's own temporary directory
	if err != nil {
		return err
	}
	if n := strings.Count(string(gen), "\nimport {"); n != want {
		return fmt.Errorf("the query generated %d import blocks, want %d", n, want)
	}
	return nil
}

func noWrites(calls []emulator.Call, what string) error {
	for _, c := range calls {
		if slices.Contains(writeOperations, c.Operation) && !c.DryRun {
			return fmt.Errorf("%s wrote: %s", what, c.Operation)
		}
	}
	return nil
}
