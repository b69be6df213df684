//go:build bindings

package app

// generatingBindings is true in the binary `wails build` and `wails generate
// module` compile (tag "bindings") and run only to list App's methods: it
// must not create or open the user's Sample project.
const generatingBindings = true
