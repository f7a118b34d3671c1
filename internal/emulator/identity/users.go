package identity

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

type user struct {
	Name       string
	ID         string
	Path       string
	Arn        string
	CreateDate time.Time
	// Policies holds the ARNs of the attached managed policies, in order.
	Policies []string
	// Credentials are the user's service-specific credentials.
	Credentials []*credential
	// Tags are the user's tags, in the order they were first set.
	Tags []tag
}

type userXML struct {
	UserName   string    `xml:"UserName"`
	UserID     string    `xml:"UserId"`
	Arn        string    `xml:"Arn"`
	Path       string    `xml:"Path"`
	CreateDate time.Time `xml:"CreateDate"`
	Tags       []tag     `xml:"Tags>member,omitempty"`
}

func (u *user) xml() userXML {
	return userXML{UserName: u.Name, UserID: u.ID, Arn: u.Arn, Path: u.Path, CreateDate: u.CreateDate, Tags: append([]tag(nil), u.Tags...)}
}

func validateUserName(field, v string) *apiError {
	if v == "" {
		return invalidInput("%s is required.", field)
	}
	if rules.UserName.CheckString(v) != nil {
		return invalidInput("%s %q must be 1 to 64 characters of letters, digits and +=,.@_-.", field, v)
	}
	return nil
}

// findUser returns the named user or NoSuchEntity.
func (s *Service) findUser(name string) (*user, *apiError) {
	if err := validateUserName("UserName", name); err != nil {
		return nil, err
	}
	u, ok := s.users[strings.ToLower(name)]
	if !ok {
		return nil, noSuchEntity("The user with name %s cannot be found.", name)
	}
	return u, nil
}

func (s *Service) createUser(_ *core.Caller, form url.Values) (any, *apiError) {
	name, path := form.Get("UserName"), form.Get("Path")
	if err := validateUserName("UserName", name); err != nil {
		return nil, err
	}
	if !form.Has("Path") {
		path = "/"
	}
	if rules.UserPath.CheckString(path) != nil {
		return nil, invalidInput("Path %q must begin and end with / and hold 1 to 512 printable ASCII characters.", path)
	}
	tags, aerr := parseTags(form, "Tags")
	if aerr != nil {
		return nil, aerr
	}
	if _, ok := s.users[strings.ToLower(name)]; ok {
		return nil, &apiError{http.StatusConflict, "EntityAlreadyExists", fmt.Sprintf("User with name %s already exists.", name)}
	}
	u := &user{
		Tags:       tags,
		Name:       name,
		ID:         randomID("AIDA", 17),
		Path:       path,
		Arn:        fmt.Sprintf("arn:cloud:identity::%s:user%s%s", s.account, path, name),
		CreateDate: s.clock.Now().Truncate(time.Second),
	}
	s.users[strings.ToLower(name)] = u
	return struct {
		User userXML `xml:"User"`
	}{u.xml()}, nil
}

func (s *Service) getUser(c *core.Caller, form url.Values) (any, *apiError) {
	if form.Get("UserName") == "" && c != nil && c.Principal != "" {
		if strings.Contains(c.Principal, ":role/") {
			// As IAM: a role session is no user.
			return nil, &apiError{http.StatusBadRequest, "ValidationError", "Must specify userName when calling with non-User credentials"}
		}
		return s.callingUser(c), nil
	}
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	return struct {
		User userXML `xml:"User"`
	}{u.xml()}, nil
}

// callingUser answers GetUser without a UserName, as IAM does: the user
// that signed the request (a role session is refused before). The
// emulator's default admin is no user of the service; it is described
// from its ARN.
func (s *Service) callingUser(c *core.Caller) any {
	for _, u := range s.users {
		if strings.EqualFold(u.Arn, c.Principal) {
			return struct {
				User userXML `xml:"User"`
			}{u.xml()}
		}
	}
	name := c.Principal[strings.LastIndex(c.Principal, "/")+1:]
	return struct {
		User userXML `xml:"User"`
	}{userXML{UserName: name, UserID: "AIDAEMULATORCALLER01", Arn: c.Principal, Path: "/"}}
}

func (s *Service) deleteUser(_ *core.Caller, form url.Values) (any, *apiError) {
	u, err := s.findUser(form.Get("UserName"))
	if err != nil {
		return nil, err
	}
	if len(u.Policies) > 0 {
		return nil, &apiError{http.StatusConflict, "DeleteConflict", "Cannot delete entity, must detach all policies first."}
	}
	if len(u.Credentials) > 0 {
		return nil, &apiError{http.StatusConflict, "DeleteConflict", "Cannot delete entity, must delete service specific credentials first."}
	}
	delete(s.users, strings.ToLower(u.Name))
	return nil, nil
}

// listUsers pages with MaxItems (1..1000, default 100) and an opaque
// Marker naming the last user returned, so that users created or deleted
// between pages neither repeat nor shift the pages.
func (s *Service) listUsers(_ *core.Caller, form url.Values) (any, *apiError) {
	maxItems, aerr := pageSize(form)
	if aerr != nil {
		return nil, aerr
	}
	after := ""
	if v := form.Get("Marker"); v != "" {
		name, ok := decodeMarker("users", v)
		if !ok || name == "" {
			return nil, invalidInput("Marker %q is not a marker this service returned.", v)
		}
		after = name
	}
	prefix := form.Get("PathPrefix")
	if form.Has("PathPrefix") && rules.UserPathPrefix.CheckString(prefix) != nil {
		return nil, invalidInput("PathPrefix %q must begin with / and hold 1 to 512 printable ASCII characters.", prefix)
	}
	var all []userXML
	for _, u := range s.users {
		if strings.HasPrefix(u.Path, prefix) && (after == "" || strings.ToLower(u.Name) > strings.ToLower(after)) {
			all = append(all, u.xml())
		}
	}
	sort.Slice(all, func(i, j int) bool { return strings.ToLower(all[i].UserName) < strings.ToLower(all[j].UserName) })
	out := struct {
		Users       []userXML `xml:"Users>member"`
		IsTruncated bool      `xml:"IsTruncated"`
		Marker      string    `xml:"Marker,omitempty"`
	}{Users: all}
	if len(all) > maxItems {
		out.Users = all[:maxItems]
		out.IsTruncated = true
		out.Marker = encodeMarker("users", all[maxItems-1].UserName)
	}
	return out, nil
}

// UserNames lists every user, for tests that check nothing is left.
func (s *Service) UserNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.users))
	for _, u := range s.users {
		out = append(out, u.Name)
	}
	sort.Strings(out)
	return out
}

// DeleteUserBehindTheBack removes a user and everything it holds, as an
// operator would out of band.
func (s *Service) DeleteUserBehindTheBack(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[strings.ToLower(name)]; !ok {
		return false
	}
	delete(s.users, strings.ToLower(name))
	return true
}
