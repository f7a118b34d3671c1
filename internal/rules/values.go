package rules

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Value is the rule of one member's value: the provider derives its
// validators from it and the emulator checks requests with it. A zero
// Value allows any value of the member's type (AnyString says so in the
// tables); the type itself is checked by each side's decoding.
type Value struct {
	// Length bounds a string's length in characters (not bytes).
	Length *IntRange
	// Range bounds a whole number.
	Range *IntRange
	// Form is a string's form.
	Form *Form
	// Items bounds the number of items of an array.
	Items *IntRange
	// Item is the rule of each item of an array of strings.
	Item *Value
}

// Form is a pattern a string must match, with the words that say what it
// must be ("must be an ARN such as ...") and a value of the form.
type Form struct {
	Re      *regexp.Regexp
	Must    string
	Example string
}

// Unbounded is the largest maximum: a Length or Items with Max Unbounded has
// a minimum only.
const Unbounded = math.MaxInt64

// AnyString is the rule of a string member that takes any string: the spec
// gives no rule and the project decides none.
var AnyString = Value{}

// Describe says the rule in a sentence for an attribute's documentation
// ("1 to 64 characters.", "From 1 to 1440.", "At most 5 items, each not
// empty."); "" for a rule that allows any value.
func (v Value) Describe() string {
	var parts []string
	if v.Items != nil {
		parts = append(parts, fmt.Sprintf("%s %s", items(*v.Items), plural(v.Items.Max, "item")))
		if v.Item != nil {
			if d := v.Item.describe(); d != "" {
				parts = append(parts, "each "+d)
			}
		}
	}
	if d := v.describe(); d != "" {
		parts = append(parts, d)
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, ", ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// describe says a string's or a number's rule, lower case.
func (v Value) describe() string {
	var parts []string
	switch l := v.Length; {
	case l == nil:
	case l.Min == 1 && l.Max == Unbounded:
		parts = append(parts, "not empty")
	default:
		parts = append(parts, count(*l, "character"))
	}
	if r := v.Range; r != nil {
		parts = append(parts, fmt.Sprintf("from %d to %d", r.Min, r.Max))
	}
	if f := v.Form; f != nil {
		parts = append(parts, f.Must)
	}
	return strings.Join(parts, "; ")
}

// items says a number of items' bound: "at most 5", "1 to 3".
func items(r IntRange) string {
	if r.Min == 0 {
		return fmt.Sprintf("at most %d", r.Max)
	}
	return fmt.Sprintf("%d to %d", r.Min, r.Max)
}

// CheckString checks a string against the rule.
func (v Value) CheckString(s string) error {
	if v.Length != nil {
		if n := int64(utf8.RuneCountInString(s)); !v.Length.Contains(n) {
			return fmt.Errorf("must be %s long, not %d", count(*v.Length, "character"), n)
		}
	}
	if v.Form != nil && !v.Form.Re.MatchString(s) {
		return fmt.Errorf("%s", v.Form.Must)
	}
	return nil
}

// CheckWholeNumber checks a whole number against the rule.
func (v Value) CheckWholeNumber(n int64) error {
	if v.Range != nil && !v.Range.Contains(n) {
		return fmt.Errorf("must be %s, not %d", v.Range, n)
	}
	return nil
}

// CheckStrings checks an array of strings: its number of items and each
// item.
func (v Value) CheckStrings(items []string) error {
	if v.Items != nil && !v.Items.Contains(int64(len(items))) {
		return fmt.Errorf("must hold %s, not %d", count(*v.Items, "item"), len(items))
	}
	if v.Item != nil {
		for i, s := range items {
			if err := v.Item.CheckString(s); err != nil {
				return fmt.Errorf("item %d %w", i, err)
			}
		}
	}
	return nil
}

// CheckCount checks the number of items of an array of objects.
func (v Value) CheckCount(n int) error {
	if v.Items != nil && !v.Items.Contains(int64(n)) {
		return fmt.Errorf("must hold %s, not %d", count(*v.Items, "item"), n)
	}
	return nil
}

// count says a range of a number of things: "at most 6 items", "at least
// 1 character", "between 8 and 128 characters".
func count(r IntRange, thing string) string {
	switch {
	case r.Min == 0:
		return fmt.Sprintf("at most %d %s", r.Max, plural(r.Max, thing))
	case r.Max == Unbounded:
		return fmt.Sprintf("at least %d %s", r.Min, plural(r.Min, thing))
	}
	return fmt.Sprintf("%s %s", r, plural(r.Max, thing))
}

// plural is thing, counted n times.
func plural(n int64, thing string) string {
	if n == 1 {
		return thing
	}
	return thing + "s"
}

func between(lo, hi int64) *IntRange { return &IntRange{lo, hi} }

// nonEmpty is a string of at least one character.
var nonEmpty = Value{Length: between(1, Unbounded)}

// arn is the form of an ARN.
var arn = Value{Form: &Form{
	Re:      regexp.MustCompile(`^arn:[a-z-]+:[a-z0-9-]+:[a-z0-9-]*:\d{0,12}:.+$`),
	Must:    "must be an ARN such as arn:cloud:identity::123456789012:role/name",
	Example: "arn:cloud:identity::123456789012:role/name",
}}

// hour is an hour of the day (UTC). A pointer shared by two entries of
// DomainConfig: unexported, so nothing outside this package changes it.
var hour = between(0, 23)

// RegionName is a region name's form (Region) as a value's rule: the
// provider's region arguments and WorkforceIdentityInstanceRegion.
var RegionName = Value{Form: &Form{Re: Region, Must: "must be a region name such as us-east-1", Example: "us-east-1"}}

// masterUserName is the master user's name, whether the internal user
// database's (MasterUserOptions) or SAML's: the same user, the same rule.
var masterUserName = Value{Length: between(1, 64)}

// WarningCode is the form of a validation code in AcceptedWarnings.
var WarningCode = Value{Form: &Form{
	Re:      regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`),
	Must:    "must be a validation code such as ADV_NO_DEDICATED_MASTERS (1 to 128 letters, digits and _.:-)",
	Example: "ADV_NO_DEDICATED_MASTERS",
}}

// AcceptedWarnings is the rule of UpdateDomainConfig's AcceptedWarnings:
// the spec's at most 25 codes, each of the form of a code.
var AcceptedWarnings = Value{Items: between(0, MaxAcceptedWarnings), Item: &WarningCode}

// DomainConfig holds the value rule of every string, whole-number and
// array member of UpdateDomainConfig's sections, by wire path: members
// joined by ".", "[]" after an array of objects, "*" for each value of a
// map. Enumerations are not here: each side keeps its own list (the
// emulator's are written from the spec independently), and the agreement
// test compares them. A member missing here is a test failure. The
// ranges, lengths and numbers of items the spec leaves open are written
// here and nowhere else (documented in contributing/design.md, "Value
// rules"; TestDecidedValues holds them to it); each entry has its own
// bounds, so no other variable can change a rule.
var DomainConfig = map[string]Value{
	"AccessPolicies": {Length: between(0, MaxAccessPoliciesChars)},

	"AdvancedSecurityOptions.IdentityFederationOptions.RolesKey":   AnyString,
	"AdvancedSecurityOptions.IdentityFederationOptions.SubjectKey": AnyString,
	"AdvancedSecurityOptions.JWTOptions.JwksUrl": {Form: &Form{
		Re:      regexp.MustCompile(`^https://[^/?#\s]+[^\s]*$`),
		Must:    "must be an https URL such as https://idp.example.com/.well-known/jwks.json",
		Example: "https://idp.example.com/.well-known/jwks.json",
	}},
	"AdvancedSecurityOptions.JWTOptions.PublicKey":                       AnyString,
	"AdvancedSecurityOptions.JWTOptions.RolesKey":                        AnyString,
	"AdvancedSecurityOptions.JWTOptions.SubjectKey":                      AnyString,
	"AdvancedSecurityOptions.MasterUserOptions.MasterUserARN":            arn,
	"AdvancedSecurityOptions.MasterUserOptions.MasterUserName":           masterUserName,
	"AdvancedSecurityOptions.MasterUserOptions.MasterUserPassword":       {Length: between(8, 128)},
	"AdvancedSecurityOptions.SAMLOptions.Idp.EntityId":                   {Length: between(8, 512)},
	"AdvancedSecurityOptions.SAMLOptions.Idp.MetadataContent":            {Length: between(1, 1048576)},
	"AdvancedSecurityOptions.SAMLOptions.MasterBackendRole":              AnyString,
	"AdvancedSecurityOptions.SAMLOptions.MasterUserName":                 masterUserName,
	"AdvancedSecurityOptions.SAMLOptions.RolesKey":                       AnyString,
	"AdvancedSecurityOptions.SAMLOptions.SessionTimeoutMinutes":          {Range: between(1, 1440)},
	"AdvancedSecurityOptions.SAMLOptions.SubjectKey":                     AnyString,
	"AutoTuneOptions.MaintenanceSchedules":                               {},
	"AutoTuneOptions.MaintenanceSchedules[].CronExpressionForRecurrence": AnyString,
	"AutoTuneOptions.MaintenanceSchedules[].Duration.Value":              {Range: between(1, 24)},

	"ClusterConfig.DedicatedMasterCount":                      {Range: between(1, 5)},
	"ClusterConfig.DedicatedMasterType":                       nonEmpty,
	"ClusterConfig.InstanceCount":                             {Range: between(1, 1000)},
	"ClusterConfig.InstanceType":                              nonEmpty,
	"ClusterConfig.NodeOptions":                               {Items: between(0, 10)},
	"ClusterConfig.NodeOptions[].NodeType":                    nonEmpty,
	"ClusterConfig.NodeOptions[].NodeConfig.Count":            {Range: between(0, 1000)},
	"ClusterConfig.NodeOptions[].NodeConfig.Type":             nonEmpty,
	"ClusterConfig.WarmCount":                                 {Range: between(2, 150)},
	"ClusterConfig.WarmType":                                  nonEmpty,
	"ClusterConfig.ZoneAwarenessConfig.AvailabilityZoneCount": {Range: between(2, 3)},

	"UserPoolAuthOptions.IdentityPoolId": AnyString,
	"UserPoolAuthOptions.RoleArn":        arn,
	"UserPoolAuthOptions.UserPoolId":     AnyString,

	"DeploymentStrategyOptions.DeploymentStrategy": nonEmpty,

	"DomainEndpointOptions.CustomEndpoint":               {Length: between(1, 255)},
	"DomainEndpointOptions.CustomEndpointCertificateArn": arn,
	"DomainEndpointOptions.TLSSecurityPolicy":            nonEmpty,

	"BlockVolumeOptions.Iops":       {Range: between(0, 256000)},
	"BlockVolumeOptions.Throughput": {Range: between(0, 4000)},
	"BlockVolumeOptions.VolumeSize": {Range: between(1, 65536)},
	"BlockVolumeOptions.VolumeType": nonEmpty,

	"EncryptionAtRestOptions.KmsKeyId": AnyString,

	"WorkforceIdentityOptions.WorkforceIdentityInstanceARN":    arn,
	"WorkforceIdentityOptions.WorkforceIdentityInstanceRegion": RegionName,
	"WorkforceIdentityOptions.RolesKey":                        AnyString,
	"WorkforceIdentityOptions.SubjectKey":                      AnyString,

	"LogPublishingOptions.*.LogsLogGroupArn": arn,

	"OffPeakWindowOptions.OffPeakWindow.WindowStartTime.Hours":   {Range: hour},
	"OffPeakWindowOptions.OffPeakWindow.WindowStartTime.Minutes": {Range: between(0, 59)},
	"SnapshotOptions.AutomatedSnapshotStartHour":                 {Range: hour},

	"VPCOptions.SecurityGroupIds": {Items: between(0, 5), Item: &nonEmpty},
	"VPCOptions.SubnetIds":        {Items: between(0, 6), Item: &nonEmpty},
}
