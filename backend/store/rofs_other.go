//go:build !unix

package store

func isReadOnlyFS(error) bool { return false }
