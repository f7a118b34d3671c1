package search_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestAdminRoutes(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	steps := []struct {
		method, path, body string
		status             int
		contains           string
	}{
		{"POST", "domains", `{"DomainName":"logs","EngineMode":"OPTIMIZED","Config":{"ClusterConfig":{"InstanceCount":2}}}`, 201, `"EngineMode":"OPTIMIZED"`},
		{"POST", "domains", `{"DomainName":"logs"}`, 400, "already exists"},
		{"GET", "domains", ``, 200, `"demo","logs"`},
		{"GET", "domains/logs", ``, 200, `"InstanceCount":2`},
		{"POST", "pace", `{"blue_green_stage":"10m"}`, 200, `"blue_green_stage":"10m0s"`},
		{"POST", "pace", `{"warp":"1s"}`, 400, "unknown pace"},
		{"POST", "fail-next-change", `{"stage":"CopyingShards"}`, 204, ``},
		{"POST", "fail-next-change", `{"stage":"Teleporting"}`, 400, "unknown stage"},
		{"DELETE", "domains/logs", ``, 204, ``},
		{"GET", "domains/logs", ``, 404, "no domain"},
	}
	for _, s := range steps {
		req, _ := http.NewRequestWithContext(ctx(t), s.method, env.url+"/_admin/search/"+s.path, strings.NewReader(s.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != s.status || !strings.Contains(string(b), s.contains) {
			t.Errorf("%s %s: HTTP %d %s; want %d containing %s", s.method, s.path, resp.StatusCode, b, s.status, s.contains)
		}
	}
}
