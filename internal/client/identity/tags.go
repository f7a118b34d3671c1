package identity

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// Tag is one tag of a user.
type Tag struct {
	Key   string `xml:"Key"`
	Value string `xml:"Value"`
}

// MaxUserTags is how many tags a user holds at most.
const MaxUserTags = 50

// setTags writes tags as prefix.member.N.Key / .Value.
func setTags(p url.Values, prefix string, tags []Tag) {
	for i, t := range tags {
		n := prefix + ".member." + strconv.Itoa(i+1) + "."
		p.Set(n+"Key", t.Key)
		p.Set(n+"Value", t.Value)
	}
}

// TagUser sets tags on a user, replacing the values of keys it already
// has. Repeating it changes nothing more, so it is retried like a read.
// client.ErrLimitExceeded past MaxUserTags tags.
func (c *Client) TagUser(ctx context.Context, userName string, tags []Tag) error {
	p := url.Values{"UserName": {userName}}
	setTags(p, "Tags", tags)
	return c.call(ctx, tagUser, p, nil)
}

// UntagUser removes tags from a user by key; keys it does not have are
// ignored, so it is safe to repeat.
func (c *Client) UntagUser(ctx context.Context, userName string, keys []string) error {
	p := url.Values{"UserName": {userName}}
	for i, k := range keys {
		p.Set("TagKeys.member."+strconv.Itoa(i+1), k)
	}
	return c.call(ctx, untagUser, p, nil)
}

// UserTags is every tag of a user, and the service's clock when it
// answered (zero when the answer had no Date).
type UserTags struct {
	Tags       []Tag
	ServerTime time.Time
}

// ListUserTags lists every tag of a user, following the pages.
func (c *Client) ListUserTags(ctx context.Context, userName string) (*UserTags, error) {
	all := &UserTags{}
	marker := ""
	for {
		p := url.Values{"UserName": {userName}, "MaxItems": {"100"}}
		if marker != "" {
			p.Set("Marker", marker)
		}
		var out struct {
			Tags        []Tag  `xml:"Tags>member"`
			IsTruncated bool   `xml:"IsTruncated"`
			Marker      string `xml:"Marker"`
		}
		at, err := c.callAt(ctx, listUserTags, p, &out)
		if err != nil {
			return nil, err
		}
		if all.ServerTime.IsZero() {
			all.ServerTime = at
		}
		all.Tags = append(all.Tags, out.Tags...)
		if !out.IsTruncated || out.Marker == "" {
			return all, nil
		}
		marker = out.Marker
	}
}
