//go:build !windows

package main

// attachConsole is needed on Windows only (see console_windows.go).
func attachConsole() {}
