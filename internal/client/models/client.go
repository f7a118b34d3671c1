// Package models is the client of the model runtime service: the Converse
// call with a bearer API key, and the generator of short-term API keys. It
// imports no framework package.
package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// ServiceName names the runtime in logs and errors. Runtime calls are not
// SigV4-signed: they carry a bearer key.
const ServiceName = "models"

// EnvBearerToken is the spec's environment variable for the runtime key.
const EnvBearerToken = "CLOUD_BEARER_TOKEN_MODELS"

// Client calls one runtime URL.
type Client struct {
	http *client.Client
}

// New returns a client for runtimeURL, such as
// https://runtime.models.us-east-1.cloud.example. cfg's credentials are not
// used: every call carries its own key.
func New(cfg client.Config, runtimeURL string) (*Client, error) {
	cfg.Credentials, cfg.CredentialsProvider = client.Credentials{}, nil
	c, err := client.New(cfg, "", runtimeURL)
	if err != nil {
		return nil, err
	}
	return &Client{http: c}, nil
}

// Message is one turn of a conversation.
type Message struct {
	Role    string         `json:"role"`
	Content []ContentBlock `json:"content"`
}

// ContentBlock is one piece of a message.
type ContentBlock struct {
	Text string `json:"text"`
}

// ConverseOutput is the decoded answer.
type ConverseOutput struct {
	Output struct {
		Message Message `json:"message"`
	} `json:"output"`
	StopReason string `json:"stopReason"`
	Usage      Usage  `json:"usage"`
}

// Usage counts tokens.
type Usage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	TotalTokens  int64 `json:"totalTokens"`
}

// Text joins the text blocks of the answer.
func (o *ConverseOutput) Text() string {
	parts := make([]string, 0, len(o.Output.Message.Content))
	for _, c := range o.Output.Message.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "")
}

// Converse sends one user prompt to a model with apiKey (long-term or
// short-term). A model call is billed, so an attempt that may have reached
// the runtime is not repeated.
func (c *Client) Converse(ctx context.Context, apiKey, modelID, prompt string) (*ConverseOutput, error) {
	if apiKey == "" {
		return nil, errors.New("an API key is required")
	}
	body, err := json.Marshal(map[string]any{
		"messages": []Message{{Role: "user", Content: []ContentBlock{{Text: prompt}}}},
	})
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(ctx, &client.Request{
		Operation: "Converse",
		Method:    http.MethodPost,
		Path:      "/model/" + url.PathEscape(modelID) + "/converse",
		Header: http.Header{
			"Authorization": {"Bearer " + apiKey},
			"Content-Type":  {"application/json"},
			"Accept":        {"application/json"},
		},
		Body:      body,
		Sensitive: true,
		Secrets:   []string{apiKey},
	})
	if err != nil {
		return nil, err
	}
	return decodeConverse(resp)
}

func decodeConverse(resp *client.Response) (*ConverseOutput, error) {
	if resp.StatusCode >= 300 {
		return nil, decodeError("Converse", resp)
	}
	var out ConverseOutput
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		return nil, fmt.Errorf("%s Converse: the answer is not converse-shaped JSON: %w", ServiceName, err)
	}
	return &out, nil
}
