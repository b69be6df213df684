//go:build !linux

package pdf

import "os/exec"

// endWithParent does nothing here: tesseract ends by its own time limit
// (ocrPageTimeout) when the OCR worker that started it is stopped.
func endWithParent(cmd *exec.Cmd) {}
