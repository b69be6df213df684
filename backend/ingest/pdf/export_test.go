package pdf

// ocrAvailable lets the external tests ask whether OCR can run.
var OCRAvailableForTest = ocrEnabled
