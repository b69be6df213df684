package pdf

import "math"

// matrix is a PDF affine transform [a b c d e f], mapping (x, y) to
// (a*x + c*y + e, b*x + d*y + f).
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul returns m × n: first apply m, then n (PDF's row-vector convention).
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2],
		m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2],
		m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4],
		m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// apply maps the point (x, y).
func (m matrix) apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

// vec maps the vector (x, y), ignoring translation.
func (m matrix) vec(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y, m[1]*x + m[3]*y
}

// translate returns the translation by (x, y).
func translate(x, y float64) matrix { return matrix{1, 0, 0, 1, x, y} }

// matrixFrom reads six numbers; ok is false unless all are finite.
func matrixFrom(args []operand) (matrix, bool) {
	if len(args) < 6 {
		return identity, false
	}
	var m matrix
	for i := 0; i < 6; i++ {
		a := args[len(args)-6+i]
		if a.kind != kNum || math.IsNaN(a.num) || math.IsInf(a.num, 0) {
			return identity, false
		}
		m[i] = a.num
	}
	return m, true
}

// hypot is the length of (x, y).
func hypot(x, y float64) float64 { return math.Sqrt(x*x + y*y) }
