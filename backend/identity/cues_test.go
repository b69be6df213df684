package identity

import (
	"testing"
	"time"
)

func TestFiscalYearEnd(t *testing.T) {
	for _, c := range []struct {
		period string
		month  time.Month
		day    int
		ok     bool
	}{
		{"FY ended Jan 25, 2025", time.January, 25, true},
		{"FY ended Jun 30, 2016", time.June, 30, true},
		{"FY2018", time.December, 31, true},
		{"quarter ended Jul 26, 2025", 0, 0, false},
		{"Q2 2022", 0, 0, false},
		{"May 3, 2023", 0, 0, false},
	} {
		m, d, ok := FiscalYearEnd(c.period)
		if m != c.month || d != c.day || ok != c.ok {
			t.Errorf("FiscalYearEnd(%q) = %v %d %v", c.period, m, d, ok)
		}
	}
}
