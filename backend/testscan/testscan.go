// Package testscan makes scanned PDFs for tests: pages of text are set in
// a PDF, rendered to images with poppler's pdftoppm, and the images are
// wrapped into a new PDF with no text layer, one full-page image per page,
// as a scanner or a slide exporter writes them.
package testscan

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Spec describes the pages: their size in points, the resolution the
// images are rendered at, and each page's lines of text (1-based page).
type Spec struct {
	Pages  int
	Width  float64 // points; default 288
	Height float64 // points; default 144
	DPI    int     // default 100
	Lines  func(page int) []string
	// Text, when set, says which pages keep a text layer (set in
	// Helvetica, not scanned): a document of text pages and scans.
	Text func(page int) bool
}

// Make writes the scanned PDF to path. It needs pdftoppm (poppler-utils).
func Make(path string, s Spec) error {
	if s.Width == 0 {
		s.Width = 288
	}
	if s.Height == 0 {
		s.Height = 144
	}
	if s.DPI == 0 {
		s.DPI = 100
	}
	dir, err := os.MkdirTemp("", "testscan-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	textPDF := filepath.Join(dir, "text.pdf")
	if err := os.WriteFile(textPDF, TextPDF(s), 0o644); err != nil {
		return err
	}
	out, err := exec.Command("pdftoppm", "-r", fmt.Sprint(s.DPI), "-gray", "-png", textPDF, filepath.Join(dir, "pg")).CombinedOutput()
	if err != nil {
		return fmt.Errorf("pdftoppm: %v: %s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "pg-*.png"))
	sort.Strings(files) // pdftoppm pads the numbers to one width
	if len(files) != s.Pages {
		return fmt.Errorf("pdftoppm made %d images for %d pages", len(files), s.Pages)
	}
	var imgs []*image.Gray
	for _, f := range files {
		g, err := readGray(f)
		if err != nil {
			return err
		}
		imgs = append(imgs, g)
	}
	return os.WriteFile(path, imagePDF(imgs, s), 0o644)
}

func readGray(path string) (*image.Gray, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if g, ok := img.(*image.Gray); ok {
		return g, nil
	}
	g := image.NewGray(img.Bounds())
	draw.Draw(g, g.Bounds(), img, img.Bounds().Min, draw.Src)
	return g, nil
}

// TextPDF is a PDF whose pages carry s.Lines in Helvetica, 14 pt.
func TextPDF(s Spec) []byte {
	var w writer
	n := s.Pages
	// 1 catalog, 2 pages, 3 font, then page i: 4+2i (page), 5+2i (content)
	w.obj("<< /Type /Catalog /Pages 2 0 R >>")
	kids := make([]string, n)
	for i := range kids {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	w.obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	w.obj(helvetica)
	for i := 0; i < n; i++ {
		w.obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", s.Width, s.Height, 5+2*i))
		w.stream("", textContent(s.Lines(i+1), s.Height))
	}
	return w.finish()
}

const helvetica = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"

// textContent sets lines in 14 pt Helvetica from the page's top left.
func textContent(lines []string, height float64) []byte {
	var c strings.Builder
	fmt.Fprintf(&c, "BT /F1 14 Tf 17 TL 14 %g Td\n", height-28)
	for k, l := range lines {
		if k > 0 {
			c.WriteString("T* ")
		}
		fmt.Fprintf(&c, "(%s) Tj\n", escape(l))
	}
	c.WriteString("ET")
	return []byte(c.String())
}

// ImagePDF is a PDF with one full-page grey image per page and no text.
func ImagePDF(imgs []*image.Gray, width, height float64) []byte {
	return imagePDF(imgs, Spec{Pages: len(imgs), Width: width, Height: height})
}

// imagePDF is ImagePDF with s.Text's pages set as text.
func imagePDF(imgs []*image.Gray, s Spec) []byte {
	width, height := s.Width, s.Height
	var w writer
	n := len(imgs)
	w.obj("<< /Type /Catalog /Pages 2 0 R >>")
	kids := make([]string, n)
	for i := range kids {
		kids[i] = fmt.Sprintf("%d 0 R", 3+3*i)
	}
	w.obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	font := 3 + 3*n // after the pages' objects
	for i, g := range imgs {
		// page 3+3i, content 4+3i, image 5+3i
		if s.Text != nil && s.Text(i+1) {
			w.obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>", width, height, font, 4+3*i))
			w.stream("", textContent(s.Lines(i+1), height))
			w.obj("null") // keeps the numbering
			continue
		}
		w.obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>", width, height, 5+3*i, 4+3*i))
		w.stream("", []byte(fmt.Sprintf("q %g 0 0 %g 0 0 cm /Im0 Do Q", width, height)))
		b := g.Bounds()
		var raw bytes.Buffer
		for y := b.Min.Y; y < b.Max.Y; y++ {
			raw.Write(g.Pix[(y-b.Min.Y)*g.Stride : (y-b.Min.Y)*g.Stride+b.Dx()])
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(raw.Bytes())
		zw.Close()
		w.stream(fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", b.Dx(), b.Dy()), z.Bytes())
	}
	w.obj(helvetica)
	return w.finish()
}

// writer lays out numbered objects and the cross-reference table.
type writer struct {
	buf  bytes.Buffer
	offs []int
}

func (w *writer) start() {
	if w.buf.Len() == 0 {
		w.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	}
	w.offs = append(w.offs, w.buf.Len())
}

func (w *writer) obj(body string) {
	w.start()
	fmt.Fprintf(&w.buf, "%d 0 obj\n%s\nendobj\n", len(w.offs), body)
}

func (w *writer) stream(dict string, data []byte) {
	w.start()
	fmt.Fprintf(&w.buf, "%d 0 obj\n<< %s /Length %d >>\nstream\n", len(w.offs), dict, len(data))
	w.buf.Write(data)
	w.buf.WriteString("\nendstream\nendobj\n")
}

func (w *writer) finish() []byte {
	x := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 %d\n0000000000 65535 f \n", len(w.offs)+1)
	for _, o := range w.offs {
		fmt.Fprintf(&w.buf, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&w.buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(w.offs)+1, x)
	return w.buf.Bytes()
}

func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(s)
}
