package pdf

import (
	"os/exec"
	"syscall"
)

// endWithParent makes tesseract end when the process that started it ends:
// the OCR worker stopped for a page past its time limit must not leave its
// tesseract running.
func endWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
