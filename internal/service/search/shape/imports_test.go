package shape

import (
	"os/exec"
	"strings"
	"testing"
)

// The shape is below the service package: it must not import it, nor
// anything under it but itself, so that calls go one way.
func TestShapeDoesNotImportTheService(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const service = "github.com/cloudlabs/terraform-provider-cloud/internal/service/"
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, service) && dep != service+"search/shape" {
			t.Errorf("package shape imports %s", dep)
		}
	}
}
