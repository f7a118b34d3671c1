// Package identity is a client of the identity service's IAM-compatible
// Query protocol: form-encoded POST requests and XML answers.
package identity

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// SigningName is the SigV4 service name of the identity service.
const SigningName = "identity"

const apiVersion = "2010-05-08"

// Client calls the identity service.
type Client struct {
	c *client.Client
}

// New returns a client for the identity service at endpoint.
func New(cfg client.Config, endpoint string) (*Client, error) {
	c, err := client.New(cfg, SigningName, endpoint)
	if err != nil {
		return nil, err
	}
	return &Client{c: c}, nil
}

// Region is the region requests are signed for.
func (c *Client) Region() string { return c.c.Region() }

// action is one of the service's actions and how it may be sent.
type action struct {
	name string
	// idempotent: sending it again after a lost answer does no harm, so
	// it is retried (client.Request.Idempotent).
	idempotent bool
	// sensitive: its answer carries a secret and is never logged.
	sensitive bool
}

// The actions this client sends.
var (
	createUser                      = action{name: "CreateUser"}
	getUser                         = action{name: "GetUser", idempotent: true}
	deleteUser                      = action{name: "DeleteUser", idempotent: true}
	listUsers                       = action{name: "ListUsers", idempotent: true}
	tagUser                         = action{name: "TagUser", idempotent: true}
	untagUser                       = action{name: "UntagUser", idempotent: true}
	listUserTags                    = action{name: "ListUserTags", idempotent: true}
	attachUserPolicy                = action{name: "AttachUserPolicy", idempotent: true}
	detachUserPolicy                = action{name: "DetachUserPolicy", idempotent: true}
	listAttachedUserPolicies        = action{name: "ListAttachedUserPolicies", idempotent: true}
	simulatePrincipalPolicy         = action{name: "SimulatePrincipalPolicy", idempotent: true}
	createServiceSpecificCredential = action{name: "CreateServiceSpecificCredential", sensitive: true}
	listServiceSpecificCredentials  = action{name: "ListServiceSpecificCredentials", idempotent: true}
	updateServiceSpecificCredential = action{name: "UpdateServiceSpecificCredential", idempotent: true}
	resetServiceSpecificCredential  = action{name: "ResetServiceSpecificCredential", idempotent: true, sensitive: true}
	deleteServiceSpecificCredential = action{name: "DeleteServiceSpecificCredential", idempotent: true}
)

// call sends one action and decodes the <ActionResult> element into out
// (which may be nil).
func (c *Client) call(ctx context.Context, a action, params url.Values, out any) error {
	_, err := c.callAt(ctx, a, params, out)
	return err
}

// callAt is call that also returns the service's clock at the answer (its
// Date header), zero when the answer has none.
func (c *Client) callAt(ctx context.Context, a action, params url.Values, out any) (time.Time, error) {
	resp, err := c.c.Do(ctx, &client.Request{
		Operation:  a.name,
		Method:     http.MethodPost,
		Path:       "/",
		Header:     formHeader,
		Body:       formBody(a, params),
		Idempotent: a.idempotent,
		Sensitive:  a.sensitive,
	})
	if err != nil {
		return time.Time{}, err
	}
	if resp.StatusCode >= 300 {
		return time.Time{}, decodeError(a.name, resp)
	}
	at, _ := http.ParseTime(resp.Header.Get("Date"))
	if out == nil {
		return at, nil
	}
	return at, decodeResult(a.name, resp.Body, out)
}

// formHeader is every request's header; Do copies it, never changes it.
var formHeader = http.Header{"Content-Type": {"application/x-www-form-urlencoded; charset=utf-8"}}

// formBody is the form of action a with params: Action and Version first,
// then params in the order of their names (url.Values.Encode), written
// once into a buffer of its size instead of copying params into a new
// map to encode.
func formBody(a action, params url.Values) []byte {
	rest := params.Encode()
	b := make([]byte, 0, len("Action=&Version=&")+len(a.name)+len(apiVersion)+len(rest))
	b = append(append(append(b, "Action="...), a.name...), "&Version="+apiVersion...)
	if rest != "" {
		b = append(append(b, '&'), rest...)
	}
	return b
}

// decodeResult decodes the <ActionResult> child of an answer
// (<ActionResponse><ActionResult>...</ActionResult><ResponseMetadata>...)
// into out. One pass: the result is decoded where the decoder finds it,
// instead of copying the envelope's children out and parsing them again.
func decodeResult(action string, body []byte, out any) error {
	d := xml.NewDecoder(bytes.NewReader(body))
	if err := enterRoot(d); err != nil {
		return fmt.Errorf("identity %s: decoding answer: %w", action, err)
	}
	found := false
	for {
		tok, err := d.Token()
		if err != nil {
			return fmt.Errorf("identity %s: decoding answer: %w", action, err)
		}
		switch t := tok.(type) {
		case xml.EndElement: // the root's: the whole answer is read
			if !found {
				return fmt.Errorf("identity %s: answer has no %sResult element", action, action)
			}
			return nil
		case xml.StartElement:
			if !found && t.Name.Local == action+"Result" {
				if err := d.DecodeElement(out, &t); err != nil {
					return fmt.Errorf("identity %s: decoding result: %w", action, err)
				}
				found = true
			} else if err := d.Skip(); err != nil {
				return fmt.Errorf("identity %s: decoding answer: %w", action, err)
			}
		}
	}
}

// enterRoot reads up to and including the document's first element, so
// that the next tokens are its children.
func enterRoot(d *xml.Decoder) error {
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		if _, ok := tok.(xml.StartElement); ok {
			return nil
		}
	}
}

// errorKinds maps the service's error codes to the shared sentinels.
var errorKinds = map[string]error{
	"NoSuchEntity":                      client.ErrNotFound,
	"EntityAlreadyExists":               client.ErrAlreadyExists,
	"LimitExceeded":                     client.ErrLimitExceeded,
	"DeleteConflict":                    client.ErrDeleteConflict,
	"InvalidInput":                      client.ErrInvalidInput,
	"ValidationError":                   client.ErrInvalidInput,
	"Throttling":                        client.ErrThrottled,
	"ServiceFailure":                    client.ErrInternal,
	"AccessDenied":                      client.ErrAccessDenied,
	"SignatureDoesNotMatch":             client.ErrAuthentication,
	"InvalidClientTokenId":              client.ErrAuthentication,
	"MissingAuthenticationToken":        client.ErrAuthentication,
	"ExpiredToken":                      client.ErrAuthentication,
	"IncompleteSignature":               client.ErrAuthentication,
	"ConcurrentModification":            client.ErrThrottled,
	"UnmodifiableEntity":                client.ErrInvalidInput,
	"MalformedPolicyDocument":           client.ErrInvalidInput,
	"NotSupportedService":               client.ErrInvalidInput,
	"ServiceNotSupported":               client.ErrInvalidInput,
	"PolicyNotAttachable":               client.ErrInvalidInput,
	"ReportGenerationLimitExceeded":     client.ErrLimitExceeded,
	"ServiceSpecificCredentialNotFound": client.ErrNotFound,
}

func decodeError(action string, resp *client.Response) error {
	var env struct {
		Error struct {
			Type    string `xml:"Type"`
			Code    string `xml:"Code"`
			Message string `xml:"Message"`
		} `xml:"Error"`
		RequestID string `xml:"RequestId"`
	}
	e := &client.APIError{Service: SigningName, Operation: action, StatusCode: resp.StatusCode}
	if err := xml.Unmarshal(resp.Body, &env); err != nil || env.Error.Code == "" {
		e.Code = client.StatusCode(resp.StatusCode)
		e.Message = "the service answered without a readable error"
		e.Kind = client.KindForStatus(resp.StatusCode)
		return e
	}
	e.Code, e.Message, e.RequestID = env.Error.Code, env.Error.Message, env.RequestID
	if e.Message == "" {
		e.Message = "the service answered without an error message"
	}
	if k, ok := errorKinds[e.Code]; ok {
		e.Kind = k
	} else {
		e.Kind = client.KindForStatus(resp.StatusCode)
	}
	return e
}

// IsNotFound reports a NoSuchEntity answer.
func IsNotFound(err error) bool { return errors.Is(err, client.ErrNotFound) }
