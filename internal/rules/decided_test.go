package rules_test

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// want is a rule written out by hand: n is "" (no bound) or "min-max",
// with "-" alone for no maximum.
type want struct {
	length, rng, items, itemLength string
	form                           string // "" (none) or a key of forms
}

func bounds(r *rules.IntRange) string {
	if r == nil {
		return ""
	}
	if r.Max == rules.Unbounded {
		return strconv.FormatInt(r.Min, 10) + "-"
	}
	return strconv.FormatInt(r.Min, 10) + "-" + strconv.FormatInt(r.Max, 10)
}

// TestDecidedValues holds every value rule to the values written in
// contributing/design.md ("Value rules") and the spec's limits, typed
// again here: a slip in the table (EntityId 8 to 215) is a failure, not a
// rule both sides then share.
func TestDecidedValues(t *testing.T) {
	t.Parallel()
	var (
		anyString = want{}
		nonEmpty  = want{length: "1-"}
		arn       = want{form: "arn"}
	)
	domain := map[string]want{
		"AccessPolicies": {length: "0-102400"}, // the spec's limit
		"AdvancedSecurityOptions.IdentityFederationOptions.RolesKey":         anyString,
		"AdvancedSecurityOptions.IdentityFederationOptions.SubjectKey":       anyString,
		"AdvancedSecurityOptions.JWTOptions.JwksUrl":                         {form: "https"},
		"AdvancedSecurityOptions.JWTOptions.PublicKey":                       anyString,
		"AdvancedSecurityOptions.JWTOptions.RolesKey":                        anyString,
		"AdvancedSecurityOptions.JWTOptions.SubjectKey":                      anyString,
		"AdvancedSecurityOptions.MasterUserOptions.MasterUserARN":            arn,
		"AdvancedSecurityOptions.MasterUserOptions.MasterUserName":           {length: "1-64"},
		"AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword":       {length: "8-128"},
		"AdvancedSecurityOptions.SAMLOptions.Idp.EntityId":                   {length: "8-512"},
		"AdvancedSecurityOptions.SAMLOptions.Idp.MetadataContent":            {length: "1-1048576"},
		"AdvancedSecurityOptions.SAMLOptions.MasterBackendRole":              anyString,
		"AdvancedSecurityOptions.SAMLOptions.MasterUserName":                 {length: "1-64"},
		"AdvancedSecurityOptions.SAMLOptions.RolesKey":                       anyString,
		"AdvancedSecurityOptions.SAMLOptions.SessionTimeoutMinutes":          {rng: "1-1440"},
		"AdvancedSecurityOptions.SAMLOptions.SubjectKey":                     anyString,
		"AutoTuneOptions.MaintenanceSchedules":                               {},
		"AutoTuneOptions.MaintenanceSchedules[].CronExpressionForRecurrence": anyString,
		"AutoTuneOptions.MaintenanceSchedules[].Duration.Value":              {rng: "1-24"},
		"ClusterConfig.DedicatedMasterCount":                                 {rng: "1-5"},
		"ClusterConfig.DedicatedMasterType":                                  nonEmpty,
		"ClusterConfig.InstanceCount":                                        {rng: "1-1000"},
		"ClusterConfig.InstanceType":                                         nonEmpty,
		"ClusterConfig.NodeOptions":                                          {items: "0-10"},
		"ClusterConfig.NodeOptions[].NodeType":                               nonEmpty,
		"ClusterConfig.NodeOptions[].NodeConfig.Count":                       {rng: "0-1000"},
		"ClusterConfig.NodeOptions[].NodeConfig.Type":                        nonEmpty,
		"ClusterConfig.WarmCount":                                            {rng: "2-150"},
		"ClusterConfig.WarmType":                                             nonEmpty,
		"ClusterConfig.ZoneAwarenessConfig.AvailabilityZoneCount":            {rng: "2-3"},
		"UserPoolAuthOptions.IdentityPoolId":                                 anyString,
		"UserPoolAuthOptions.RoleArn":                                        arn,
		"UserPoolAuthOptions.UserPoolId":                                     anyString,
		"DeploymentStrategyOptions.DeploymentStrategy":                       nonEmpty,
		"DomainEndpointOptions.CustomEndpoint":                               {length: "1-255"},
		"DomainEndpointOptions.CustomEndpointCertificateArn":                 arn,
		"DomainEndpointOptions.TLSSecurityPolicy":                            nonEmpty,
		"BlockVolumeOptions.Iops":                                            {rng: "0-256000"},
		"BlockVolumeOptions.Throughput":                                      {rng: "0-4000"},
		"BlockVolumeOptions.VolumeSize":                                      {rng: "1-65536"},
		"BlockVolumeOptions.VolumeType":                                      nonEmpty,
		"EncryptionAtRestOptions.KmsKeyId":                                   anyString,
		"WorkforceIdentityOptions.WorkforceIdentityInstanceARN":              arn,
		"WorkforceIdentityOptions.WorkforceIdentityInstanceRegion":           {form: "region"},
		"WorkforceIdentityOptions.RolesKey":                                  anyString,
		"WorkforceIdentityOptions.SubjectKey":                                anyString,
		"LogPublishingOptions.*.LogsLogGroupArn":                             arn,
		"OffPeakWindowOptions.OffPeakWindow.WindowStartTime.Hours":           {rng: "0-23"},
		"OffPeakWindowOptions.OffPeakWindow.WindowStartTime.Minutes":         {rng: "0-59"},
		"SnapshotOptions.AutomatedSnapshotStartHour":                         {rng: "0-23"},
		"VPCOptions.SecurityGroupIds":                                        {items: "0-5", itemLength: "1-"},
		"VPCOptions.SubnetIds":                                               {items: "0-6", itemLength: "1-"},
	}
	for key, w := range domain {
		r, ok := rules.DomainConfig[key]
		if !ok {
			t.Errorf("%s: no rule in rules.DomainConfig", key)
			continue
		}
		checkRule(t, key, r, w)
	}
	for key := range rules.DomainConfig {
		if _, ok := domain[key]; !ok {
			t.Errorf("%s: a rule this test does not hold to a written value: add it above", key)
		}
	}
	for name, c := range map[string]struct {
		r rules.Value
		w want
	}{
		"UserName":           {rules.UserName, want{length: "1-64", form: "user"}},
		"UserPath":           {rules.UserPath, want{length: "1-512", form: "path"}},
		"PolicyARN":          {rules.PolicyARN, want{form: "arn"}},
		"ModelID":            {rules.ModelID, want{length: "1-2048", form: "model"}},
		"MessageText":        {rules.MessageText, want{length: "1-100000"}},
		"WarningCode":        {rules.WarningCode, want{form: "code"}},
		"AcceptedWarnings":   {rules.AcceptedWarnings, want{items: "0-25"}},
		"CredentialAgeDays":  {rules.CredentialAgeDays, want{rng: "1-36600"}},
		"UserPathPrefix":     {rules.UserPathPrefix, want{length: "1-512", form: "prefix"}},
		"ServiceName":        {rules.ServiceName, want{length: "3-128", form: "service"}},
		"CredentialID":       {rules.CredentialID, want{form: "credential"}},
		"DomainName":         {rules.DomainName, want{length: "3-28", form: "domain"}},
		"ChangeID":           {rules.ChangeID, want{length: "36-36", form: "id"}},
		"RoleSessionName":    {rules.RoleSessionName, want{form: "session"}},
		"RoleSessionSeconds": {rules.RoleSessionSeconds, want{rng: "900-43200"}},
		"ExternalID":         {rules.ExternalID, want{length: "2-1224", form: "external"}},
		"WebIdentityToken":   {rules.WebIdentityToken, want{length: "4-20000"}},
		"ListMaxItems":       {rules.ListMaxItems, want{rng: "1-1000"}},
		"RegionName":         {rules.RegionName, want{form: "region"}},
	} {
		checkRule(t, name, c.r, c.w)
	}
	// The key document's limit: "At most 12 hours".
	if rules.MaxShortTermKeyLifetime != 12*time.Hour {
		t.Errorf("MaxShortTermKeyLifetime = %v, want the spec's 12h", rules.MaxShortTermKeyLifetime)
	}
	if got := rules.DedicatedMasterCountsEnabled; !slices.Equal(got, []int64{3, 5}) {
		t.Errorf("DedicatedMasterCountsEnabled = %v, want [3 5]", got)
	}
}

// checkRule compares a rule's bounds with w and its form with examples of
// the form w names.
func checkRule(t *testing.T, key string, r rules.Value, w want) {
	t.Helper()
	itemLength := ""
	if r.Item != nil {
		itemLength = bounds(r.Item.Length)
	}
	got := want{length: bounds(r.Length), rng: bounds(r.Range), items: bounds(r.Items), itemLength: itemLength, form: w.form}
	if got != w {
		t.Errorf("%s: rule %+v, want %+v", key, got, w)
	}
	forms := map[string]struct{ good, bad string }{
		"arn":    {"arn:cloud:identity::123456789012:policy/p", "not-an-arn"},
		"https":  {"https://idp.example.com/.well-known/jwks.json", "http://idp.example.com/.well-known/jwks.json"},
		"code":   {strings.Repeat("A", 128), strings.Repeat("A", 129)},
		"user":   {"alice+ops@example.com", "alice smith"},
		"path":   {"/team/", "team"},
		"model":  {"anthropic.claude-v2:1", "claude v2"},
		"region": {"eu-west-3", "Europe"},
		// The length in the form: the bad value is one past it.
		"prefix":     {"/apps/", "apps/"},
		"service":    {"models.cloud.example", "Models"},
		"credential": {strings.Repeat("A", 128), strings.Repeat("A", 129)},
		"domain":     {"demo-1", "1demo"},
		"id":         {"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1fg"},
		"session":    {strings.Repeat("s", 64), strings.Repeat("s", 65)},
		"external":   {"a:b/c@d", "a b"},
	}
	switch f, ok := forms[w.form]; {
	case w.form == "" && r.Form != nil:
		t.Errorf("%s: has a form (%s), the written rule none", key, r.Form.Must)
	case ok && r.Form == nil:
		t.Errorf("%s: no form, want %s", key, w.form)
	case ok:
		if err := r.CheckString(f.good); err != nil {
			t.Errorf("%s: refuses %q: %v", key, f.good, err)
		}
		if r.CheckString(f.bad) == nil {
			t.Errorf("%s: accepts %q", key, f.bad)
		}
	}
}

// TestSpecLimits holds the constants to the spec's "Limits" table
// (testdata/search_limits.md, a verbatim copy): each row's numbers are
// parsed and compared with the constants both the provider and the
// emulator's shared rules use.
func TestSpecLimits(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/search_limits.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	limits := map[string][]int64{}
	num := regexp.MustCompile(`\d+`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(strings.Trim(sc.Text(), "| "), "|")
		if len(cells) != 2 || !strings.HasPrefix(sc.Text(), "|") {
			continue
		}
		var ns []int64
		for _, s := range num.FindAllString(cells[1], -1) {
			n, _ := strconv.ParseInt(s, 10, 64)
			ns = append(ns, n)
		}
		limits[strings.TrimSpace(cells[0])] = ns
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		row string
		got []int64
	}{
		{"DomainName length", []int64{rules.DomainName.Length.Min, rules.DomainName.Length.Max}},
		{"AcceptedWarnings", []int64{rules.MaxAcceptedWarnings}},
		{"AccessPolicies length", []int64{0, rules.MaxAccessPoliciesChars}},
		{"Automated snapshot suspension", []int64{int64(rules.MaxSnapshotPause / (24 * time.Hour))}},
		{"DryRunId, ChangeId length", []int64{rules.ChangeID.Length.Min}},
		{"Default for indices.query.bool.max_clause_count", []int64{mustInt(t, rules.AdvancedOptionDefaults()[rules.MaxClauseCount])}},
	} {
		want, ok := limits[c.row]
		if !ok {
			t.Errorf("the spec's table has no row %q", c.row)
			continue
		}
		if !slices.Equal(c.got, want) {
			t.Errorf("%s: the constants say %v, the spec %v", c.row, c.got, want)
		}
	}
	if l := rules.ChangeID.Length; l.Min != l.Max {
		t.Errorf("ChangeID's length %v is not exact", l)
	}
	if rules.MaxSnapshotPause%(24*time.Hour) != 0 {
		t.Errorf("MaxSnapshotPause %v is not a whole number of days", rules.MaxSnapshotPause)
	}
	if r := rules.DomainConfig["AccessPolicies"].Length; r == nil || r.Max != rules.MaxAccessPoliciesChars {
		t.Errorf("AccessPolicies' rule %v does not use MaxAccessPoliciesChars", r)
	}
	if r := rules.AcceptedWarnings.Items; r == nil || r.Max != rules.MaxAcceptedWarnings {
		t.Errorf("AcceptedWarnings' rule %v does not use MaxAcceptedWarnings", r)
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
