package app

import "cairn/app/version"

// Version is the line the About box in Settings shows, the same one
// `cairn --version` prints: "cairn 0.1.0 (abc1234, windows/amd64)".
func (a *App) Version() string { return version.String() }
