package project

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"cairn/backend/ingest/parsed"
)

// fileProblem is a per-file import failure (the file is missing, not a
// regular file, too large, changed while read): the file fails alone.
type fileProblem struct {
	code parsed.Code
	msg  string
}

func (e *fileProblem) Error() string { return e.msg }

// incoming is the user's file copied into files/ under a temporary name.
type incoming struct {
	tmp  string // absolute path of the copy
	hash string // SHA-256 of the copy, hex
	size int64
}

// afterCopy, when set (tests), runs after the source was copied and before
// it is checked for changes.
var afterCopy func(src string)

// copyIn reads the user's file exactly once, into a temporary file in
// files/, hashing what it writes: the hash, the stored copy and what the
// reader reads are the same bytes. Only regular files are read (a FIFO, a
// device or a link to one fails at once). A file that changes while it is
// copied fails with a message; problems with the file come back as
// *fileProblem, problems writing into the project as other errors.
func (p *Project) copyIn(src string) (incoming, error) {
	f, err := openRegular(src)
	if err != nil {
		return incoming{}, sourceProblem(err)
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return incoming{}, sourceProblem(err)
	}
	if before.Size() > MaxFileBytes {
		return incoming{}, tooLarge(before.Size())
	}
	tmp, err := os.CreateTemp(filepath.Join(p.dir, FilesDir), ".incoming-*")
	if err != nil {
		return incoming{}, err
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	r := &errReader{r: io.LimitReader(f, MaxFileBytes+1)}
	n, err := io.Copy(io.MultiWriter(tmp, h), r)
	if r.err != nil {
		return incoming{}, sourceProblem(r.err)
	}
	if err != nil {
		return incoming{}, err // writing into the project
	}
	if n > MaxFileBytes {
		return incoming{}, tooLarge(n)
	}
	if afterCopy != nil {
		afterCopy(src)
	}
	after, err := f.Stat()
	if err != nil {
		return incoming{}, sourceProblem(err)
	}
	if n != before.Size() || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		return incoming{}, &fileProblem{code: "changed", msg: "the file changed while it was being read; import it again once it is complete"}
	}
	if err := tmp.Sync(); err != nil {
		return incoming{}, err
	}
	if err := tmp.Close(); err != nil {
		return incoming{}, err
	}
	keep = true
	return incoming{tmp: tmp.Name(), hash: hex.EncodeToString(h.Sum(nil)), size: n}, nil
}

// errReader remembers a read error, so a failing source (the user's file)
// is told apart from a failing destination (the project).
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

func tooLarge(size int64) error {
	return &fileProblem{code: parsed.CodeTooLarge, msg: fmt.Sprintf("the file is %d MiB; Cairn imports files up to %d MiB", size>>20, MaxFileBytes>>20)}
}

// sourceProblem words an error opening or reading the user's file.
func sourceProblem(err error) error {
	var nr errNotRegular
	switch {
	case errors.As(err, &nr):
		return &fileProblem{code: "not_regular", msg: "cannot import: " + nr.Error()}
	case errors.Is(err, fs.ErrNotExist):
		return &fileProblem{code: "not_found", msg: "the file disappeared before it could be read (it was moved or deleted)"}
	case errors.Is(err, fs.ErrPermission):
		return &fileProblem{code: "not_found", msg: "cannot open: permission denied"}
	}
	return &fileProblem{code: "not_found", msg: "cannot read: " + errText(err)}
}
