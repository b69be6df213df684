package bench

import (
	"math"
	"sort"
	"time"
)

// Summarise returns min, median and max of runs (zero for none). The
// median of an even count is the mean of the two middle values.
func Summarise(runs []float64) Stat {
	s := Stat{Runs: append([]float64(nil), runs...)}
	if len(runs) == 0 {
		return s
	}
	v := append([]float64(nil), runs...)
	sort.Float64s(v)
	s.Min, s.Max = v[0], v[len(v)-1]
	if n := len(v); n%2 == 1 {
		s.Median = v[n/2]
	} else {
		s.Median = (v[n/2-1] + v[n/2]) / 2
	}
	return s
}

// Percentile returns the p-th percentile (0 < p ≤ 100) of xs by the
// nearest-rank method: the smallest value with at least p% of the values at
// or below it. Zero for no values.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	v := append([]float64(nil), xs...)
	sort.Float64s(v)
	rank := int(math.Ceil(p / 100 * float64(len(v))))
	rank = min(max(rank, 1), len(v))
	return v[rank-1]
}

// Millis converts durations to milliseconds.
func Millis(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = float64(d) / float64(time.Millisecond)
	}
	return out
}

// Rate is count per second of elapsed (0 when nothing elapsed).
func Rate(count float64, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return count / elapsed.Seconds()
}
