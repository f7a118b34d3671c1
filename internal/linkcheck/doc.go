// Package linkcheck holds the check that every relative link of the
// repository's Markdown (and of the templates the docs are generated from),
// and every repository path a Go comment names, points at something that
// exists. It has no code of its own.
package linkcheck
