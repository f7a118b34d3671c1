// Package botocorevectors holds requests and short-term keys that botocore
// signed (make_vectors.py wrote vectors.json). botocore is the SigV4
// implementation of the AWS CLI and of the official token generators,
// independent of the aws-sdk-go-v2 signer; the emulator's verifier and the
// provider's token generator are both tested against these, with nothing
// installed. Only tests import it.
package botocorevectors

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"time"
)

//go:embed vectors.json
var raw []byte

// Vectors is vectors.json.
type Vectors struct {
	// Botocore is the version of botocore that signed them.
	Botocore string
	// Time is when everything was signed (X-Amz-Date's format); At is it
	// parsed.
	Time        string
	At          time.Time `json:"-"`
	Credentials []Credential
	Requests    []Request
	Tokens      []Token
}

// Credential is a key pair botocore signed with (a session token for
// temporary credentials).
type Credential struct {
	AccessKeyID     string `json:"access_key_id"`
	SecretAccessKey string `json:"secret_access_key"`
	SessionToken    string `json:"session_token"`
}

// Request is a signed request as it went on the wire.
type Request struct {
	Name, Service, Method, Path, Body string
	Headers                           map[string]string
}

// Token is a short-term key: a presigned URL for Region, valid for Expires
// seconds from Time.
type Token struct {
	Name, Region, Token string
	Expires             int
}

// Load parses vectors.json.
func Load() (*Vectors, error) {
	var v Vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("vectors.json: %w", err)
	}
	at, err := time.Parse("20060102T150405Z", v.Time)
	if err != nil {
		return nil, fmt.Errorf("vectors.json: Time: %w", err)
	}
	v.At = at
	return &v, nil
}
