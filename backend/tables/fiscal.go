package tables

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"cairn/backend/lexicon"
)

// FiscalEnd is the day a document's fiscal years end on, each year (its
// month and day; the zero value: calendar years).
type FiscalEnd struct {
	Month time.Month
	Day   int
}

// fiscalWeek is how long after its nominal end a 52/53-week fiscal year
// may run (a year "ending January 25" ends on January 31 some years).
const fiscalWeek = 7

// FiscalYear is the fiscal year day d falls in, for years ending on end:
// named by the calendar year they end in, as companies name them (the
// year ended January 25, 2025 is fiscal 2025; July 26, 2025 is in fiscal
// 2026). A date up to a week after the nominal end still belongs to the
// year ending then.
func FiscalYear(d time.Time, end FiscalEnd) int {
	for y := d.Year() - 1; ; y++ {
		e := time.Date(y, end.Month, end.Day, 0, 0, 0, 0, time.UTC)
		if !d.After(e.AddDate(0, 0, fiscalWeek)) {
			return y
		}
	}
}

// columnDateRE is a date heading a column ("July 26, 2025", "Jan. 25,
// 2025"), by the lexicon's English month names (their first three
// letters, in order: monthAbbrevs).
var columnDateRE, monthAbbrevs = func() (*regexp.Regexp, []string) {
	var abbrevs []string
	for _, m := range lexicon.English().Words("months") {
		abbrevs = append(abbrevs, strings.ToLower(m[:3]))
	}
	return regexp.MustCompile(`(?i)\b(` + strings.Join(abbrevs, "|") + `)[a-z]*\.?\s+(\d{1,2}),?\s+((?:19|20)\d\d)\b`), abbrevs
}()

// MonthPattern is a regular expression (no group of its own) for an
// English month name, whole or cut ("January", "Jan.", "Sept"), from the
// lexicon; callers add their own flags ("(?i)").
var MonthPattern = `(?:` + strings.Join(monthAbbrevs, "|") + `)[a-z]*\.?`

// monthDayRE is a date without its year ("Dec. 26", "September 30"):
// a quarter's or a month's end under a year set over a group of columns.
var monthDayRE = regexp.MustCompile(`(?i)^(` + strings.Join(monthAbbrevs, "|") + `)[a-z]*\.?\s+\d{1,2},?$`)

// columnDate reads the one date a column's name holds; ok is false when it
// holds none or several.
func columnDate(c string) (time.Time, bool) {
	ms := columnDateRE.FindAllStringSubmatch(c, 2)
	if len(ms) != 1 {
		return time.Time{}, false
	}
	m := time.Month(slices.Index(monthAbbrevs, strings.ToLower(ms[0][1])) + 1)
	day, _ := strconv.Atoi(ms[0][2])
	year, _ := strconv.Atoi(ms[0][3])
	if day < 1 || day > 31 {
		return time.Time{}, false
	}
	return time.Date(year, m, day, 0, 0, 0, 0, time.UTC), true
}

// fiscalYearAt is the fiscal year of column j when the table's fiscal end
// is known and the column is headed by a date; ok is false otherwise (the
// years the column's name writes stand).
func (t Table) fiscalYearAt(j int) (int, bool) {
	if t.FiscalEnd.Month == 0 || j >= len(t.Columns) {
		return 0, false
	}
	d, ok := columnDate(t.Columns[j])
	if !ok {
		return 0, false
	}
	return FiscalYear(d, t.FiscalEnd), true
}

// yearAt is the year column j stands for: its fiscal year (fiscalYearAt),
// else the last year its name writes (columnYear).
func (t Table) yearAt(j int) (int, bool) {
	if y, ok := t.fiscalYearAt(j); ok {
		return y, true
	}
	return columnYear(t.Columns[j])
}
