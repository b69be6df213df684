package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// attachConsole makes a command's output visible in the console it was
// typed into. The release cairn.exe is linked as a GUI program (no console
// window flashes when the Start-menu entry opens the app), and Windows gives
// a GUI program no standard handles unless they were redirected. So when
// stdout is not already a pipe or a file, attach to the parent's console
// (cmd.exe, PowerShell, Windows Terminal) and write there. A redirected
// command (`cairn.exe docs --json > docs.json`, `| more`) keeps its handles.
func attachConsole() {
	if h, err := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE); err == nil && h != 0 && h != windows.InvalidHandle {
		if t, _ := windows.GetFileType(h); t == windows.FILE_TYPE_DISK || t == windows.FILE_TYPE_PIPE {
			return // redirected to a file or a pipe
		}
	}
	attach := windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")
	const attachParentProcess = ^uintptr(0) // ATTACH_PARENT_PROCESS, (DWORD)-1
	if r, _, _ := attach.Call(attachParentProcess); r == 0 {
		return // started from Explorer or a shortcut: no console to write to
	}
	if out, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
		os.Stdout = out
		os.Stderr = out
		windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, windows.Handle(out.Fd()))
		windows.SetStdHandle(windows.STD_ERROR_HANDLE, windows.Handle(out.Fd()))
	}
	if in, err := os.OpenFile("CONIN$", os.O_RDONLY, 0); err == nil {
		os.Stdin = in
		windows.SetStdHandle(windows.STD_INPUT_HANDLE, windows.Handle(in.Fd()))
	}
}
