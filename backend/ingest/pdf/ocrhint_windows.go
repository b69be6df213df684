package pdf

// OCRInstallHint says how to make OCR available on Windows: tesseract is
// optional and found on the PATH.
const OCRInstallHint = `install Tesseract OCR for Windows (the UB Mannheim installer, https://github.com/UB-Mannheim/tesseract/wiki, with the languages you need) and add its folder, usually C:\Program Files\Tesseract-OCR, to your PATH`
