//go:build !unix

package project

import "os"

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
