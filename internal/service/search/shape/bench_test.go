package shape

import "testing"

// BenchmarkSectionTable is what building the section table costs the first
// provider process call that needs it (sections).
func BenchmarkSectionTable(b *testing.B) {
	for b.Loop() {
		all := finished(ruled(sectionTable()))
		finishedObject(object("DryRunConfig", "", dryRunConfigTable(all)...))
	}
}
