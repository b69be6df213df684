package bench

import (
	"testing"
	"time"
)

func TestSummarise(t *testing.T) {
	cases := []struct {
		runs           []float64
		min, med, maxv float64
	}{
		{nil, 0, 0, 0},
		{[]float64{5}, 5, 5, 5},
		{[]float64{3, 1, 2}, 1, 2, 3},
		{[]float64{4, 1, 3, 2}, 1, 2.5, 4},
	}
	for _, c := range cases {
		s := Summarise(c.runs)
		if s.Min != c.min || s.Median != c.med || s.Max != c.maxv {
			t.Errorf("Summarise(%v) = %v/%v/%v, want %v/%v/%v", c.runs, s.Min, s.Median, s.Max, c.min, c.med, c.maxv)
		}
		if len(s.Runs) != len(c.runs) {
			t.Errorf("Summarise(%v) kept %d runs", c.runs, len(s.Runs))
		}
	}
	in := []float64{3, 1, 2}
	Summarise(in)
	if in[0] != 3 {
		t.Error("Summarise sorted its input in place")
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5} // 1..10
	cases := []struct {
		xs   []float64
		p    float64
		want float64
	}{
		{xs, 50, 5},
		{xs, 95, 10},
		{xs, 90, 9},
		{xs, 10, 1},
		{xs, 100, 10},
		{[]float64{42}, 95, 42},
		{nil, 50, 0},
	}
	for _, c := range cases {
		if got := Percentile(c.xs, c.p); got != c.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", c.xs, c.p, got, c.want)
		}
	}
}

func TestRate(t *testing.T) {
	if r := Rate(100, 2*time.Second); r != 50 {
		t.Errorf("Rate = %v", r)
	}
	if r := Rate(100, 0); r != 0 {
		t.Errorf("Rate over zero time = %v", r)
	}
	if m := Millis([]time.Duration{1500 * time.Microsecond}); m[0] != 1.5 {
		t.Errorf("Millis = %v", m)
	}
}
