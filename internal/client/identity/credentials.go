package identity

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Status values of a service-specific credential.
const (
	StatusActive   = "Active"
	StatusInactive = "Inactive"
)

// ServiceSpecificCredential is a long-term API key. ServiceAPIKeyValue is set
// only in the answers of Create and Reset.
type ServiceSpecificCredential struct {
	UserName                    string    `xml:"UserName"`
	ServiceName                 string    `xml:"ServiceName"`
	ServiceSpecificCredentialID string    `xml:"ServiceSpecificCredentialId"`
	ServiceAPIKeyValue          string    `xml:"ServiceApiKeyValue"`
	Status                      string    `xml:"Status"`
	CreateDate                  time.Time `xml:"CreateDate"`
	ExpirationDate              time.Time `xml:"ExpirationDate"`
}

// CreateServiceSpecificCredentialInput creates a long-term API key.
type CreateServiceSpecificCredentialInput struct {
	UserName          string
	ServiceName       string
	CredentialAgeDays int
}

// CreateServiceSpecificCredential creates a key. Not idempotent (a repeat
// makes a second key): a lost answer is client.ErrOutcomeUnknown, and the
// key's value cannot be read again, so the caller lists the user's keys to
// find the key and resets it to obtain a value.
//
// The service requires CredentialAgeDays (a long-term key is created with
// its expiry chosen), so it is always sent, and a value outside its range
// (0 included, an input that forgot it) is refused before the call.
func (c *Client) CreateServiceSpecificCredential(ctx context.Context, in CreateServiceSpecificCredentialInput) (*ServiceSpecificCredential, error) {
	if err := rules.CredentialAgeDays.CheckWholeNumber(int64(in.CredentialAgeDays)); err != nil {
		return nil, fmt.Errorf("%w: CredentialAgeDays %w", client.ErrInvalidInput, err)
	}
	p := url.Values{"UserName": {in.UserName}, "ServiceName": {in.ServiceName}, "CredentialAgeDays": {strconv.Itoa(in.CredentialAgeDays)}}
	var out struct {
		Credential ServiceSpecificCredential `xml:"ServiceSpecificCredential"`
	}
	if err := c.call(ctx, createServiceSpecificCredential, p, &out); err != nil {
		return nil, err
	}
	return &out.Credential, nil
}

// ListServiceSpecificCredentialsOutput is a user's keys, without values.
type ListServiceSpecificCredentialsOutput struct {
	Credentials []ServiceSpecificCredential
	// ServerTime is the service's clock when it answered (from the Date
	// header), zero when unknown. Renewal planning compares expiry dates
	// with it rather than with the local clock.
	ServerTime time.Time
	// IsTruncated says the service left keys out of Credentials.
	IsTruncated bool
}

// ListServiceSpecificCredentials lists a user's keys (without their values),
// of one service when serviceName is set.
func (c *Client) ListServiceSpecificCredentials(ctx context.Context, userName, serviceName string) (*ListServiceSpecificCredentialsOutput, error) {
	p := url.Values{"UserName": {userName}}
	if serviceName != "" {
		p.Set("ServiceName", serviceName)
	}
	var out struct {
		Credentials []ServiceSpecificCredential `xml:"ServiceSpecificCredentials>member"`
		IsTruncated bool                        `xml:"IsTruncated"`
	}
	at, err := c.callAt(ctx, listServiceSpecificCredentials, p, &out)
	if err != nil {
		return nil, err
	}
	return &ListServiceSpecificCredentialsOutput{Credentials: out.Credentials, ServerTime: at, IsTruncated: out.IsTruncated}, nil
}

// UpdateServiceSpecificCredential sets a key's status (Active or Inactive).
func (c *Client) UpdateServiceSpecificCredential(ctx context.Context, userName, id, status string) error {
	p := url.Values{"UserName": {userName}, "ServiceSpecificCredentialId": {id}, "Status": {status}}
	return c.call(ctx, updateServiceSpecificCredential, p, nil)
}

// ResetServiceSpecificCredential gives a key a new value and returns it; the
// old value stops working. Safe to repeat: a repeat only gives yet another
// value, and the last answer holds the one that works, so an attempt whose
// answer was lost or timed out is retried like a read.
func (c *Client) ResetServiceSpecificCredential(ctx context.Context, userName, id string) (*ServiceSpecificCredential, error) {
	p := url.Values{"UserName": {userName}, "ServiceSpecificCredentialId": {id}}
	var out struct {
		Credential ServiceSpecificCredential `xml:"ServiceSpecificCredential"`
	}
	if err := c.call(ctx, resetServiceSpecificCredential, p, &out); err != nil {
		return nil, err
	}
	return &out.Credential, nil
}

// DeleteServiceSpecificCredential deletes a key permanently.
func (c *Client) DeleteServiceSpecificCredential(ctx context.Context, userName, id string) error {
	p := url.Values{"UserName": {userName}, "ServiceSpecificCredentialId": {id}}
	return c.call(ctx, deleteServiceSpecificCredential, p, nil)
}
