// Package guidetest runs the configurations of the guides in docs/guides, as
// a reader would, through the real Terraform CLI against the emulator: the
// blocks are taken from the generated pages, so what the page shows is what
// runs.
package guidetest
