package search

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/privatestate"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
)

// Terraform plans again at apply, also for a saved plan, and refuses the
// apply ("inconsistent final plan ... a bug in the provider") when that plan's
// dry_run differs from the reviewed one. The provider never sees the
// reviewed plan there, but the prior state it plans from is the one the
// reviewed plan's refresh read, and so is the private state. domainRead,
// kept in the private state by every refresh and apply, is what the domain
// looked like then; when the domain has changed since in a section the
// change sets, the reviewed verdict can no longer be assumed, and the plan
// stops with its own error instead (contributing/design.md, "A domain
// changed since the plan stops with our error").

// domainRead is the domain as Terraform last read it: its latest change,
// whether that change was running, and a digest of each section as the
// service showed it (a running change's pending values laid over). It
// holds only what the domain is, never when or by whom it was read, so a
// read that finds the domain as it was writes the same bytes and a
// refresh with nothing changed changes nothing.
type domainRead struct {
	Change   string            `json:"change"`
	Running  bool              `json:"running"`
	Sections map[string]string `json:"sections"`
}

// privateDomainRead is the private state's key for domainRead.
const privateDomainRead = "domain_read"

// recordRead keeps live in p as the domain last read; live nil forgets it.
func recordRead(ctx context.Context, p privatestate.Setter, live *domainState) diag.Diagnostics {
	if live == nil {
		return privatestate.Forget(ctx, p, privateDomainRead)
	}
	return privatestate.Set(ctx, p, privateDomainRead, domainRead{Change: live.latestChange, Running: live.running != "", Sections: sectionDigests(live.sections)})
}

func readDomainRead(ctx context.Context, p privatestate.Getter) *domainRead {
	var rd domainRead
	if !privatestate.Get(ctx, p, privateDomainRead, &rd) || rd.Sections == nil {
		return nil
	}
	return &rd
}

// sectionDigests identifies each section by what the service shows of it,
// in its wire form (requestKey of a request of that section alone, so
// numbers and sets are normalised).
func sectionDigests(secs map[string]tftypes.Value) map[string]string {
	shown := shape.Shown(secs)
	out := make(map[string]string, len(shown))
	for _, s := range shown {
		switch {
		case s.Err != nil:
			out[s.Name] = "unreadable"
		case !s.Set:
			out[s.Name] = "unset"
		default:
			out[s.Name] = requestKey(&searchclient.UpdateDomainConfigInput{Sections: map[string]any{s.Wire: s.Value}})[:16]
		}
	}
	return out
}

// changedSinceRead reports the sections of sections (those a change
// sets) that changed on domain since Terraform last read it (rd, kept with
// the prior state), sorted, and the domain as it is now. A dry run that
// found the domain at the change last read (after, afterRunning: its
// record of the domain) saw no change, and no read is made; nor without a
// record, or when the read fails (the dry run's verdict then stands as
// today; apply re-checks it before sending anything, sendReviewed).
func changedSinceRead(ctx context.Context, c *searchclient.Client, rd *domainRead, domain string, prior tftypes.Value, sections map[string]bool, after string, afterRunning bool) ([]string, *domainState) {
	if rd == nil || rd.Change == after && rd.Running == afterRunning {
		return nil, nil
	}
	live, err := findDomainConfig(ctx, c, domain, prior)
	if err != nil {
		tflog.Warn(ctx, "Could not read the search domain to compare it with the last read", map[string]any{"domain_name": domain, "error": err.Error()})
		return nil, nil
	}
	now := sectionDigests(live.sections)
	var changed []string
	for name := range sections {
		if rd.Sections[name] != now[name] {
			changed = append(changed, name)
		}
	}
	sort.Strings(changed)
	return changed, live
}
