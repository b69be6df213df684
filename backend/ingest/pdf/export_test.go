package pdf

import lp "github.com/ledongthuc/pdf"

// nilValue is an empty library value (no resources).
var nilValue lp.Value
