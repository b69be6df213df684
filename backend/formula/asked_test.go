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
