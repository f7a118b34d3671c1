package identity

import (
	"context"
	"net/url"
)

// AttachedPolicy is a managed policy attached to a user.
type AttachedPolicy struct {
	PolicyName string `xml:"PolicyName"`
	PolicyArn  string `xml:"PolicyArn"`
}

// AttachUserPolicy attaches a managed policy to a user. Attaching a policy
// that is already attached succeeds, so the call is safe to repeat.
func (c *Client) AttachUserPolicy(ctx context.Context, userName, policyArn string) error {
	return c.call(ctx, attachUserPolicy, url.Values{"UserName": {userName}, "PolicyArn": {policyArn}}, nil)
}

// DetachUserPolicy detaches a managed policy; client.ErrNotFound when it is
// not attached.
func (c *Client) DetachUserPolicy(ctx context.Context, userName, policyArn string) error {
	return c.call(ctx, detachUserPolicy, url.Values{"UserName": {userName}, "PolicyArn": {policyArn}}, nil)
}

// ListAttachedUserPolicies lists every policy attached to a user, following
// the pages.
func (c *Client) ListAttachedUserPolicies(ctx context.Context, userName string) ([]AttachedPolicy, error) {
	var all []AttachedPolicy
	marker := ""
	for {
		p := url.Values{"UserName": {userName}, "MaxItems": {"100"}}
		if marker != "" {
			p.Set("Marker", marker)
		}
		var out struct {
			Policies    []AttachedPolicy `xml:"AttachedPolicies>member"`
			IsTruncated bool             `xml:"IsTruncated"`
			Marker      string           `xml:"Marker"`
		}
		if err := c.call(ctx, listAttachedUserPolicies, p, &out); err != nil {
			return nil, err
		}
		all = append(all, out.Policies...)
		if !out.IsTruncated || out.Marker == "" {
			return all, nil
		}
		marker = out.Marker
	}
}
