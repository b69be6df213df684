package pdf

import lp "github.com/ledongthuc/pdf"

// ocrAvailable lets the external tests ask whether OCR can run.
var OCRAvailableForTest = ocrEnabled

// nilValue is an empty library value (no resources).
var nilValue lp.Value
