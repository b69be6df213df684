package formula

import "testing"

func TestAsked(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"What was the 2021 research spending (in EUR thousands) for Orbis Labs?", "research spending"},
		{"Using the ledger only: what is Northwind's FY 2020 total amount of receivables? Answer in millions.", "receivables"},
		{"What is the year-end 2019 net plant value of Acme Tools?", "net plant"},
		{"What was the year-over-year change in membership fees from 2018 to 2019?", "membership fees"},
		{"What is the Q2 2023 yield per hectare?", "yield per hectare"},
		{"What is the average grain yield at the site for 2010?", "average grain yield at the site"},
		{"what is research spending for Orbis Labs in FY2021? Answer in millions.", "research spending"},
		{"What is the net plant value of Acme Tools for the fiscal year ending January 28, 2023?", "net plant"},
		{"What was Acme Corp's long-term debt at the end of 2022?", "long-term debt"},
		{"What was Orbis Corp's cash balance as of the close of FY2021?", "cash balance"},
		{"What were Acme Corp's widget sales in the fourth quarter of fiscal 2022?", "widget sales"},
	} {
		got, ok := Asked(c.q)
		if !ok || got != c.want {
			t.Errorf("Asked(%q) = %q, %v; want %q", c.q, got, ok, c.want)
		}
	}
	for _, q := range []string{
		"Who founded the company?",
		"Did revenue grow in 2020?",
		"What is the FY2020 for Acme?",
		"What is the reason the board gave for the change and why did the members of the committee vote against it at the meeting?",
	} {
		if got, ok := Asked(q); ok {
			t.Errorf("Asked(%q) = %q, want none", q, got)
		}
	}
}

func TestAskedFormula(t *testing.T) {
	figs := map[Operand]float64{
		{"seed spend", 2021}: 10, {"harvest", 2021}: 100,
		{"seed spend", 2022}: 30, {"harvest", 2022}: 200,
		{"seed spend", 2023}: 20, {"harvest", 2023}: 400,
		{"revenue", 2021}: 200, {"revenue", 2022}: 300,
	}
	for _, c := range []struct {
		q    string
		year int
		want float64
		text string
	}{
		{"What is the 2022 seed spend as a % of harvest for Greenacre?", 2022, 0.15, "seed spend 2022 30 / harvest 2022 200"},
		{"What is the FY2021 - FY2023 3 year average of seed spend as a % of harvest? Round to one decimal.", 2023, (0.1 + 0.15 + 0.05) / 3,
			"((seed spend 2021 10 / harvest 2021 100) + (seed spend 2022 30 / harvest 2022 200) + (seed spend 2023 20 / harvest 2023 400)) / 3"},
		{"What is the 2021 to 2023 average harvest?", 2023, (100 + 200 + 400) / 3.0, "(harvest 2021 100 + harvest 2022 200 + harvest 2023 400) / 3"},
		{"What was the 2023 seed spend to harvest ratio?", 2023, 0.05, "seed spend 2023 20 / harvest 2023 400"},
		// The owner named before the period, the period named by its last day.
		{"what is seed spend to harvest ratio for Greenacre in FY2022? Round to two decimal places.", 2022, 0.15, "seed spend 2022 30 / harvest 2022 200"},
		{"What is the seed spend to harvest ratio for the fiscal year ending June 30, 2021?", 2021, 0.1, "seed spend 2021 10 / harvest 2021 100"},
		{"What is the ratio of seed spend to harvest in 2023?", 2023, 0.05, "seed spend 2023 20 / harvest 2023 400"},
		// A margin is the figure over revenue.
		{"What is the FY2022 seed spend % margin for Greenacre? Answer in percentage term.", 2022, 0.1, "seed spend 2022 30 / revenue 2022 300"},
		{"What was Greenacre's 2021 seed spend margin (as a %)?", 2021, 0.05, "seed spend 2021 10 / revenue 2021 200"},
		// "A to B" without "ratio" is one when the answer is asked rounded.
		{"what is seed spend to harvest for Greenacre in FY2021? Round your answer to three decimal places.", 2021, 0.1, "seed spend 2021 10 / harvest 2021 100"},
	} {
		f, ok := AskedFormula(c.q)
		if !ok {
			t.Errorf("%q: no formula", c.q)
			continue
		}
		v, err := f.Expr.Eval(c.year, figs)
		if err != nil || v < c.want-1e-9 || v > c.want+1e-9 {
			t.Errorf("%q: %v %v, want %v", c.q, v, err, c.want)
		}
		if got := f.Expr.Text(c.year, figs, show); got != c.text {
			t.Errorf("%q: text %q\nwant %q", c.q, got, c.text)
		}
	}
	for _, q := range []string{"What is the 2022 harvest?", "What is the average harvest?", "What is the margin?",
		// Not asked rounded: a way from one place to another, not a ratio.
		"What is the road from the mill to the harbour?", "What is seed spend to harvest in 2022?"} {
		if f, ok := AskedFormula(q); ok {
			t.Errorf("%q: formula %+v, want none", q, f)
		}
	}
}

func TestAskedChange(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"What percentage did barley deliveries increase from 2014 to 2015?", "barley deliveries"},
		{"By how much did the Orbis Labs research spending fall between FY2019 and FY2020?", "Orbis Labs research spending"},
		{"How much higher was the proposed dividend (Rupees in lacs) in 2002 compared to 2001?", "proposed dividend"},
	} {
		got, ok := Asked(c.q)
		if !ok || got != c.want {
			t.Errorf("Asked(%q) = %q, %v; want %q", c.q, got, ok, c.want)
		}
	}
}
