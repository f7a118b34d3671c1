package search

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
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
// whether that change was running, a digest of each section as the
// service showed it (a running change's pending values laid over), and
// when the service answered, by its own clock (zero when not known).
type domainRead struct {
	Change   string            `json:"change"`
	Running  bool              `json:"running"`
	Sections map[string]string `json:"sections"`
	ReadAt   time.Time         `json:"read_at,omitzero"`
	// Nonce tells this read from any other with the same answer: a plan's
	// dry run is handed on to plans that start from this read (handoff.go).
	Nonce string `json:"nonce,omitempty"`
}

// privateDomainRead is the private state's key for domainRead.
const privateDomainRead = "domain_read"

// recordRead keeps live in p as the domain last read; live nil forgets it.
func recordRead(ctx context.Context, p privateSetter, live *domainState) diag.Diagnostics {
	if live == nil {
		return p.SetKey(ctx, privateDomainRead, nil)
	}
	b, err := json.Marshal(domainRead{Change: live.latestChange, Running: live.running != "", Sections: sectionDigests(live.sections), ReadAt: live.readAt, Nonce: rand.Text()})
	if err != nil {
		return p.SetKey(ctx, privateDomainRead, nil)
	}
	return p.SetKey(ctx, privateDomainRead, b)
}

func readDomainRead(ctx context.Context, p privateGetter) *domainRead {
	b, d := p.GetKey(ctx, privateDomainRead)
	if d.HasError() || len(b) == 0 {
		return nil
	}
	var rd domainRead
	if json.Unmarshal(b, &rd) != nil || rd.Sections == nil {
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

// changedSinceReadDetail reports, as the detail of the plan's error, a
// domain that changed since Terraform last read it (the prior state) in a
// section that the plan's change p.ch sets: the dry run dr of p.ch then
// analysed another starting point than the reviewed plan's did, so its
// verdict cannot be shown to be the reviewed one. "" when the domain's
// latest change is the one read (no read is made), when no section p.ch
// sets changed, or when nothing was recorded.
func (p *planning) changedSinceReadDetail(ctx context.Context, dr *dryRunResult) string {
	domain, ch := p.domain, p.ch
	rd := readDomainRead(ctx, p.req.Private)
	if rd == nil || rd.Change == dr.after && rd.Running == dr.afterRunning {
		return ""
	}
	live, err := findDomainConfig(ctx, p.r.clients.Search, domain, p.req.State.Raw)
	if err != nil {
		// The dry run's verdict stands as today; apply re-checks it before
		// sending anything (sendReviewed).
		tflog.Warn(ctx, "Could not read the search domain to compare it with the last read", map[string]any{"domain_name": domain, "error": err.Error()})
		return ""
	}
	now := sectionDigests(live.sections)
	var changed []string
	for name := range ch.sections {
		if rd.Sections[name] != now[name] {
			changed = append(changed, name)
		}
	}
	if len(changed) == 0 {
		return ""
	}
	sort.Strings(changed)
	latest := "no change"
	if live.latestChange != "" {
		latest = fmt.Sprintf("change %s (%s)", live.latestChange, live.latestStatus)
	}
	verdict := dr.verdict().String()
	if dr.deploymentType == searchclient.DeploymentTypeNone {
		verdict += " (the domain already has what this change sets, as if someone made the same change)"
	}
	return fmt.Sprintf("Domain %q changed after Terraform last read it (in the refresh of this plan; for a plan made with -refresh=false, at the last apply or refresh): its latest change is now %s, and it changed %s, which this change sets. "+
		"The diff and verdict the plan showed were worked out against the domain as Terraform read it, so they can no longer be assumed: a dry run (%s) of the same change now says %s.\n\n"+
		"Nothing was sent. Run terraform plan again, with refresh (the default), to review the change against the domain as it is now, then apply that plan.",
		domain, latest, strings.Join(changed, ", "), dr.id, verdict)
}
