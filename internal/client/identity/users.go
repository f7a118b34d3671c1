package identity

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// User is an identity-service user.
type User struct {
	UserName   string    `xml:"UserName"`
	UserID     string    `xml:"UserId"`
	Arn        string    `xml:"Arn"`
	Path       string    `xml:"Path"`
	CreateDate time.Time `xml:"CreateDate"`
	Tags       []Tag     `xml:"Tags>member"`
}

// CreateUserInput creates a user. Path defaults to "/".
type CreateUserInput struct {
	UserName string
	Path     string
	// Tags are set on the user as it is created.
	Tags []Tag
}

// CreateUser creates a user. It is not idempotent: a lost answer is
// reported as client.ErrOutcomeUnknown, and the caller finds out with GetUser.
func (c *Client) CreateUser(ctx context.Context, in CreateUserInput) (*User, error) {
	p := url.Values{"UserName": {in.UserName}}
	if in.Path != "" {
		p.Set("Path", in.Path)
	}
	setTags(p, "Tags", in.Tags)
	var out struct {
		User User `xml:"User"`
	}
	if err := c.call(ctx, createUser, p, &out); err != nil {
		return nil, err
	}
	return &out.User, nil
}

// GetUser reads a user; client.ErrNotFound when there is none.
func (c *Client) GetUser(ctx context.Context, userName string) (*User, error) {
	var out struct {
		User User `xml:"User"`
	}
	if err := c.call(ctx, getUser, url.Values{"UserName": {userName}}, &out); err != nil {
		return nil, err
	}
	return &out.User, nil
}

// DeleteUser deletes a user. client.ErrDeleteConflict while anything is
// still attached to it.
func (c *Client) DeleteUser(ctx context.Context, userName string) error {
	return c.call(ctx, deleteUser, url.Values{"UserName": {userName}}, nil)
}

// ListUsersInput asks for one page of users.
type ListUsersInput struct {
	// PathPrefix keeps the users whose path begins with it ("" or "/": all).
	PathPrefix string
	// Marker is the previous page's NextMarker ("" for the first page).
	Marker string
	// MaxItems is the page's size, 1 to 1000 (0: the service's default, 100).
	MaxItems int
}

// ListUsersOutput is one page of users. Users carry no tags: ListUsers
// does not return them.
type ListUsersOutput struct {
	Users []User
	// NextMarker asks for the next page; "" after the last one.
	NextMarker string
}

// ListUsers reads one page of the account's users, in name order.
func (c *Client) ListUsers(ctx context.Context, in ListUsersInput) (*ListUsersOutput, error) {
	p := url.Values{}
	if in.PathPrefix != "" {
		p.Set("PathPrefix", in.PathPrefix)
	}
	if in.Marker != "" {
		p.Set("Marker", in.Marker)
	}
	if in.MaxItems > 0 {
		p.Set("MaxItems", strconv.Itoa(in.MaxItems))
	}
	var out struct {
		Users       []User `xml:"Users>member"`
		IsTruncated bool   `xml:"IsTruncated"`
		Marker      string `xml:"Marker"`
	}
	if err := c.call(ctx, listUsers, p, &out); err != nil {
		return nil, err
	}
	next := ""
	if out.IsTruncated {
		next = out.Marker
	}
	return &ListUsersOutput{Users: out.Users, NextMarker: next}, nil
}
