package identity

import (
	"context"
	"net/url"
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
