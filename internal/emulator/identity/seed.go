package identity

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// FieldError is a refusal of a seeded value; Field names it within the
// user or key (path, tags.<key>, policies[1], status), so a seed file's
// loader can name the value's place in the file.
type FieldError struct{ Field, Message string }

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// SeedUser creates a user with its tags and attached policies through the
// service's own CreateUser and AttachUserPolicy, so a seeded user obeys
// every rule a caller's does. tagKeys gives the tags' order.
func (s *Service) SeedUser(name, path string, tags map[string]string, tagKeys, policies []string) error {
	form := url.Values{"UserName": {name}}
	if path != "" {
		form.Set("Path", path)
	}
	for i, k := range tagKeys {
		form.Set(fmt.Sprintf("Tags.member.%d.Key", i+1), k)
		form.Set(fmt.Sprintf("Tags.member.%d.Value", i+1), tags[k])
	}
	// The tags first, so a refusal is put on them; then CreateUser, whose
	// refusal is of the path when the path breaks its rule, else the name.
	if _, aerr := parseTags(form, "Tags"); aerr != nil {
		return &FieldError{"tags", aerr.message}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, aerr := s.createUser(nil, form); aerr != nil {
		field := "name"
		if path != "" && rules.UserPath.CheckString(path) != nil {
			field = "path"
		}
		return &FieldError{field, aerr.message}
	}
	for i, arn := range policies {
		if _, aerr := s.attachUserPolicy(nil, url.Values{"UserName": {name}, "PolicyArn": {arn}}); aerr != nil {
			delete(s.users, strings.ToLower(name))
			return &FieldError{"policies[" + strconv.Itoa(i) + "]", aerr.message}
		}
	}
	return nil
}

// SeedKey is a key a seed file gives a user: Created and Expires are
// required (the service gives every key an expiration); ID and Value are
// generated when empty; Region is where the key works (the runtime
// refuses it elsewhere).
type SeedKey struct {
	ID, ServiceName, Status, Value, Region string
	Created, Expires                       time.Time
}

// SeedKeyValueChars is how long a key value is: KeyPrefix and the
// unpadded URL-safe base64 of 48 bytes.
const SeedKeyValueChars = len(KeyPrefix) + 64

// AddSeedKey gives the user a key as k describes, by the service's rules:
// a supported service, at most MaxCredentialsPerService keys per service,
// Active or Inactive, an expiration after the creation, unique ids and
// values of the service's forms.
func (s *Service) AddSeedKey(userName string, k SeedKey) error {
	if aerr := checkServiceName(k.ServiceName); aerr != nil {
		return &FieldError{"service_name", aerr.message}
	}
	if k.Status != "Active" && k.Status != "Inactive" {
		return &FieldError{"status", fmt.Sprintf("%q is not Active or Inactive", k.Status)}
	}
	if !k.Expires.After(k.Created) {
		return &FieldError{"expires", "a key expires after it is created"}
	}
	if k.ID != "" && !validKeyID(k.ID) {
		return &FieldError{"id", fmt.Sprintf("%q is not a key id (ACCA and 17 of A-Z, 2-7)", k.ID)}
	}
	if k.Value != "" && !validKeyValue(k.Value) {
		return &FieldError{"secret", fmt.Sprintf("not a key value (%s and 64 characters of URL-safe base64)", KeyPrefix)}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(userName)]
	if !ok {
		return &FieldError{"", "no user " + userName}
	}
	if aerr := checkCredentialQuota(u, k.ServiceName); aerr != nil {
		return &FieldError{"service_name", aerr.message}
	}
	if k.ID == "" {
		k.ID = randomID("ACCA", 17)
	}
	if k.Value == "" {
		k.Value = newKeyValue()
	}
	for _, other := range s.users {
		for _, c := range other.Credentials {
			if c.ID == k.ID {
				return &FieldError{"id", fmt.Sprintf("%s is already a key of %s", k.ID, other.Name)}
			}
			if c.Value == k.Value {
				return &FieldError{"secret", "the same value is already a key of " + other.Name}
			}
		}
	}
	u.Credentials = append(u.Credentials, &credential{
		ID: k.ID, ServiceName: k.ServiceName, Value: k.Value, Status: k.Status, Region: k.Region,
		CreateDate: k.Created.UTC().Truncate(time.Second), Expiration: k.Expires.UTC().Truncate(time.Second),
	})
	return nil
}

func validKeyID(id string) bool {
	if len(id) != 21 || !strings.HasPrefix(id, "ACCA") {
		return false
	}
	return strings.Trim(id[4:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") == ""
}

func validKeyValue(v string) bool {
	rest, ok := strings.CutPrefix(v, KeyPrefix)
	if !ok || utf8.RuneCountInString(v) != SeedKeyValueChars {
		return false
	}
	return strings.Trim(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == ""
}
