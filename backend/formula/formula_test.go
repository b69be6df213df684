package formula

import (
	"strconv"
	"testing"
)

func show(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func TestParse(t *testing.T) {
	tests := []struct {
		name     string
		question string
		target   string
		year     int
		operands []Operand
		figures  map[Operand]float64
		want     float64
		text     string
	}{
		{
			name:     "ratio over an average",
			question: "What is the 2021 asset turnover of Acme Widgets? Asset turnover is defined as: FY2021 sales / (average total assets between FY2020 and FY2021). Round to two decimals.",
			target:   "Asset turnover", year: 2021,
			operands: []Operand{{"sales", 2021}, {"total assets", 2020}, {"total assets", 2021}},
			figures:  map[Operand]float64{{"sales", 2021}: 300, {"total assets", 2020}: 100, {"total assets", 2021}: 200},
			want:     2,
			text:     "sales 2021 300 / ((total assets 2020 100 + total assets 2021 200) / 2)",
		},
		{
			name:     "instruction with word operators",
			question: "Define the quick ratio as (cash plus receivables) divided by current liabilities. What was it in 2019?",
			target:   "quick ratio", year: 2019,
			operands: []Operand{{"cash", 2019}, {"receivables", 2019}, {"current liabilities", 2019}},
			figures:  map[Operand]float64{{"cash", 2019}: 3, {"receivables", 2019}: 1, {"current liabilities", 2019}: 8},
			want:     0.5,
			text:     "(cash 2019 3 + receivables 2019 1) / current liabilities 2019 8",
		},
		{
			name: "definitions that use one another",
			question: "What is the 2022 stock cycle of the mill? Stock cycle is defined as: DIS - DPP. " +
				"DIS is defined as: 365 * (average stock between 2021 and 2022) / (2022 cost of sales). " +
				"DPP is defined as: 365 * (average payables between 2021 and 2022) / (2022 cost of sales + change in stock between 2021 and 2022).",
			target: "Stock cycle", year: 2022,
			operands: []Operand{{"stock", 2021}, {"stock", 2022}, {"cost of sales", 2022}, {"payables", 2021}, {"payables", 2022}},
			figures: map[Operand]float64{{"stock", 2021}: 10, {"stock", 2022}: 30, {"cost of sales", 2022}: 365,
				{"payables", 2021}: 30, {"payables", 2022}: 50},
			// DIS = 365*20/365 = 20; DPP = 365*40/(365+20) = 37.922…
			want: 20 - 365.0*40/385,
		},
		{
			name:     "here is defined as, minus sign",
			question: "According to the cash flow statement, what is the 2020 free cash flow for Acme? Free cash flow here is defined as: (cash from operations - capital spending). Answer in millions.",
			target:   "Free cash flow", year: 2020,
			operands: []Operand{{"cash from operations", 2020}, {"capital spending", 2020}},
			figures:  map[Operand]float64{{"cash from operations", 2020}: 50, {"capital spending", 2020}: 20},
			want:     30,
		},
		{
			name:     "bracketed note left out, quantity with its year after",
			question: "Define gross cash as operating income + depreciation [from the cash flow statement] plus interest in 2018.",
			target:   "gross cash", year: 2018,
			operands: []Operand{{"operating income", 2018}, {"depreciation", 2018}, {"interest", 2018}},
			figures:  map[Operand]float64{{"operating income", 2018}: 1, {"depreciation", 2018}: 2, {"interest", 2018}: 3},
			want:     6,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := Parse(tt.question)
			if !ok {
				t.Fatalf("Parse found no formula")
			}
			if f.Target != tt.target {
				t.Errorf("target %q, want %q", f.Target, tt.target)
			}
			ops := f.Expr.Operands(tt.year)
			if len(ops) != len(tt.operands) {
				t.Fatalf("operands %v, want %v", ops, tt.operands)
			}
			for i := range ops {
				if ops[i] != tt.operands[i] {
					t.Errorf("operand %d %v, want %v", i, ops[i], tt.operands[i])
				}
			}
			v, err := f.Expr.Eval(tt.year, tt.figures)
			if err != nil {
				t.Fatal(err)
			}
			if d := v - tt.want; d > 1e-9 || d < -1e-9 {
				t.Errorf("value %v, want %v", v, tt.want)
			}
			if tt.text != "" {
				if got := f.Expr.Text(tt.year, tt.figures, show); got != tt.text {
					t.Errorf("text %q\nwant %q", got, tt.text)
				}
			}
		})
	}
}

func TestParseNone(t *testing.T) {
	for _, q := range []string{
		"What was the 2020 revenue of Acme?",
		"How is the fee defined in the contract?",
		"The term is defined as the period of the loan.", // no arithmetic
		"X is defined as: (a + ).",
		"A is defined as: B + 1. B is defined as: A + 1.", // a cycle
	} {
		if f, ok := Parse(q); ok {
			t.Errorf("Parse(%q) = %+v, want none", q, f)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	f, ok := Parse("Margin is defined as: profit / sales.")
	if !ok {
		t.Fatal("no formula")
	}
	if _, err := f.Expr.Eval(2020, map[Operand]float64{{"profit", 2020}: 1}); err == nil {
		t.Error("missing figure: no error")
	}
	if _, err := f.Expr.Eval(2020, map[Operand]float64{{"profit", 2020}: 1, {"sales", 2020}: 0}); err == nil {
		t.Error("division by zero: no error")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Asset turnover is defined as: FY2021 sales / (average total assets between FY2020 and FY2021).",
		"Define the quick ratio as (cash plus receivables) divided by current liabilities.",
		"A is defined as: ((b", "Define x as [y", "C is defined as: 365 * - / ( ) .",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		fm, ok := Parse(q)
		if !ok {
			return
		}
		ops := fm.Expr.Operands(2020)
		figs := map[Operand]float64{}
		for i, o := range ops {
			figs[o] = float64(i + 1)
		}
		_, _ = fm.Expr.Eval(2020, figs)
		_ = fm.Expr.Text(2020, figs, show)
	})
}

func TestParseAskedExpression(t *testing.T) {
	q := "What is the 2020 core profit less capital spending for Acme Tools? Define core profit as operating income + depreciation. Answer in millions."
	f, ok := Parse(q)
	if !ok {
		t.Fatal("no formula")
	}
	if f.Target != "2020 core profit less capital spending" {
		t.Errorf("target %q", f.Target)
	}
	figs := map[Operand]float64{{"operating income", 2020}: 10, {"depreciation", 2020}: 4, {"capital spending", 2020}: 5}
	v, err := f.Expr.Eval(2020, figs)
	if err != nil || v != 9 {
		t.Errorf("value %v %v, want 9", v, err)
	}
	if got, want := f.Expr.Text(2020, figs, show), "(operating income 2020 10 + depreciation 2020 4) − capital spending 2020 5"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}
