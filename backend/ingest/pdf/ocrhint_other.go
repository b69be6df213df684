//go:build !windows

package pdf

// OCRInstallHint says how to make OCR available (scanned pages are read
// with tesseract when it is on the PATH; it is optional).
const OCRInstallHint = "install tesseract-ocr with its language packs (apt-get install tesseract-ocr tesseract-ocr-chi-sim; on macOS brew install tesseract tesseract-lang)"
