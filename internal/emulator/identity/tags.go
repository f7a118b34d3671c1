package identity

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

// IAM's limits on the tags of a user.
const (
	maxUserTags    = 50
	maxTagKeyLen   = 128
	maxTagValueLen = 256
)

var (
	tagKeyRe   = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]+$`)
	tagValueRe = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$`)
)

// tag is one tag of a user.
type tag struct {
	Key   string `xml:"Key"`
	Value string `xml:"Value"`
}

// parseTags reads prefix.member.N.Key / .Value (N from 1) and checks them
// as IAM does: keys of 1 to 128 characters, values of 0 to 256, no key
// twice (keys are case-insensitive), at most 50 in one request.
func parseTags(form url.Values, prefix string) ([]tag, *apiError) {
	var out []tag
	seen := map[string]bool{}
	for i := 1; ; i++ {
		k := fmt.Sprintf("%s.member.%d.", prefix, i)
		key, hasKey := form[k+"Key"]
		value, hasValue := form[k+"Value"]
		if !hasKey && !hasValue {
			break
		}
		t := tag{Key: first(key), Value: first(value)}
		if err := checkTag(t); err != nil {
			return nil, err
		}
		if seen[strings.ToLower(t.Key)] {
			return nil, invalidInput("Duplicate tag keys found. Please note that Tag keys are case insensitive.")
		}
		seen[strings.ToLower(t.Key)] = true
		out = append(out, t)
	}
	if len(out) > maxUserTags {
		return nil, invalidInput("1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must have length less than or equal to %d", maxUserTags)
	}
	return out, nil
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func checkTag(t tag) *apiError {
	if n := utf8.RuneCountInString(t.Key); n < 1 || n > maxTagKeyLen || !tagKeyRe.MatchString(t.Key) {
		return invalidInput("1 validation error detected: Value %q at 'tags.member.key' failed to satisfy constraint: Member must have length between 1 and %d and match pattern [\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]+", t.Key, maxTagKeyLen)
	}
	if n := utf8.RuneCountInString(t.Value); n > maxTagValueLen || !tagValueRe.MatchString(t.Value) {
		return invalidInput("1 validation error detected: Value at 'tags.member.value' of tag %q failed to satisfy constraint: Member must have length less than or equal to %d and match pattern [\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*", t.Key, maxTagValueLen)
	}
	return nil
}

// mergeTags returns have with add set over it (a key matching one already
// there, in any case, replaces it), or LimitExceeded past 50 tags.
func mergeTags(have, add []tag) ([]tag, *apiError) {
	out := append([]tag(nil), have...)
	for _, t := range add {
		replaced := false
		for i := range out {
			if strings.EqualFold(out[i].Key, t.Key) {
				out[i], replaced = t, true
				break
			}
		}
		if !replaced {
			out = append(out, t)
		}
	}
	if len(out) > maxUserTags {
		return nil, &apiError{http.StatusConflict, "LimitExceeded", fmt.Sprintf("The number of tags has reached the maximum limit of %d.", maxUserTags)}
	}
	return out, nil
}

func (s *Service) tagUser(_ *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	add, err := parseTags(form, "Tags")
	if err != nil {
		return nil, err
	}
	if len(add) == 0 {
		return nil, invalidInput("Tags is required.")
	}
	tags, err := mergeTags(u.Tags, add)
	if err != nil {
		return nil, err
	}
	u.Tags = tags
	return nil, nil
}

func (s *Service) untagUser(_ *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	var keys []string
	for i := 1; ; i++ {
		v, ok := form[fmt.Sprintf("TagKeys.member.%d", i)]
		if !ok {
			break
		}
		if err := checkTag(tag{Key: first(v)}); err != nil {
			return nil, err
		}
		keys = append(keys, first(v))
	}
	if len(keys) == 0 {
		return nil, invalidInput("TagKeys is required.")
	}
	if len(keys) > maxUserTags {
		return nil, invalidInput("1 validation error detected: Value at 'tagKeys' failed to satisfy constraint: Member must have length less than or equal to %d", maxUserTags)
	}
	kept := u.Tags[:0:0]
	for _, t := range u.Tags {
		drop := false
		for _, k := range keys {
			drop = drop || strings.EqualFold(t.Key, k)
		}
		if !drop {
			kept = append(kept, t)
		}
	}
	u.Tags = kept
	return nil, nil
}

// listUserTags pages with MaxItems and an opaque Marker, in the order the
// tags were first set.
func (s *Service) listUserTags(_ *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	start, end, next, err := positionalPage(form, "tags", len(u.Tags))
	if err != nil {
		return nil, err
	}
	out := struct {
		Tags        []tag  `xml:"Tags>member"`
		IsTruncated bool   `xml:"IsTruncated"`
		Marker      string `xml:"Marker,omitempty"`
	}{Tags: append([]tag{}, u.Tags[start:end]...)}
	out.IsTruncated, out.Marker = next != "", next
	return out, nil
}

// UserTags returns a user's tags as key=value, for tests that check what
// a run left on a user; nil when there is no such user.
func (s *Service) UserTags(name string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(name)]
	if !ok {
		return nil
	}
	out := make(map[string]string, len(u.Tags))
	for _, t := range u.Tags {
		out[t.Key] = t.Value
	}
	return out
}
