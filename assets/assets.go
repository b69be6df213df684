// Package assets holds product material that ships inside the binary: the
// sample documents imported into the Sample project on first run.
package assets

import "embed"

// Sample holds sample/*: the public-domain documents of the Sample project
// and their README (see sample/README.md for where each comes from).
//
//go:embed sample
var Sample embed.FS

// Icon is the 256 px app icon (rendered from brand/cairn.svg), used as the
// desktop window's icon on Linux.
//
//go:embed brand/icon-256.png
var Icon []byte
