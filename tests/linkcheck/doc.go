// Package linkcheck holds the checks that every relative link of the
// repository's Markdown (and of the templates the docs are generated from),
// and every repository path or Go file a Go comment names, points at
// something that exists, and that no Go comment cites an issue or review
// item of a tracker outside the repository. It has no code of its own.
package linkcheck
