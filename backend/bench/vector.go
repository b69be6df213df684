package bench

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cairn/backend/project"
	"cairn/backend/store"
)

// Vector k-NN against the brute-force bound: a full scan must at least read
// every float32 vector once, so bytes of vectors / memory read bandwidth
// (measured here with a plain Go loop) bounds any exact scan from below.
// Cairn's store searches an in-memory int8 index and re-scores its
// candidates exactly (store.NearestChunks, backend/vecindex; the figure ids
// keep their old "vec0" name, from when sqlite-vec's vec0 did the scan); a
// Go loop over the float vectors in memory is shown too. When the store is
// over 3× the bound, a benchmark-only experiment quantises the vectors
// (binary, int8) into scratch vec0 tables, re-scores the candidates exactly
// and reports latency and recall against exact KNN.

const knnK = 50 // the depth project.Search reads the vector list to

// bandwidthBuf is the buffer the bandwidth loop reads (256 MiB, far above
// any cache).
const bandwidthBytes = 256 << 20

// MemoryBandwidth measures single-thread sequential read bandwidth in
// bytes/s: the best of reps passes summing a 256 MiB buffer.
func MemoryBandwidth(reps int) float64 {
	buf := make([]uint64, bandwidthBytes/8)
	for i := range buf {
		buf[i] = uint64(i)
	}
	best := time.Duration(math.MaxInt64)
	var sink uint64
	for r := 0; r < max(reps, 1); r++ {
		t0 := time.Now()
		sink += sumWords(buf)
		best = min(best, time.Since(t0))
	}
	if sink == 42 { // keep the loop from being optimised away
		fmt.Print("")
	}
	return float64(bandwidthBytes) / best.Seconds()
}

// sumWords reads every word with four independent accumulators.
func sumWords(b []uint64) uint64 {
	var a0, a1, a2, a3 uint64
	for i := 0; i+4 <= len(b); i += 4 {
		a0 += b[i]
		a1 += b[i+1]
		a2 += b[i+2]
		a3 += b[i+3]
	}
	return a0 + a1 + a2 + a3
}

// vectorSet is every chunk vector of a corpus, in one flat slice.
type vectorSet struct {
	ids  []int64
	flat []float32
	dim  int
}

func loadVectors(ctx context.Context, st *store.Store) (*vectorSet, error) {
	vs := &vectorSet{}
	err := st.ChunkVectors(ctx, func(id int64, v []float32) error {
		if vs.dim == 0 {
			vs.dim = len(v)
		}
		if len(v) != vs.dim {
			return fmt.Errorf("chunk %d: vector of %d dimensions, want %d", id, len(v), vs.dim)
		}
		vs.ids = append(vs.ids, id)
		vs.flat = append(vs.flat, v...)
		return nil
	})
	return vs, err
}

func (vs *vectorSet) bytes() float64 { return float64(len(vs.flat) * 4) }

// BruteForce returns the ids of the k vectors with the largest dot product
// with q (cosine for unit vectors), best first.
func BruteForce(ids []int64, flat []float32, dim int, q []float32, k int) []int64 {
	type sc struct {
		id int64
		s  float32
	}
	top := make([]sc, 0, k+1)
	for i := range ids {
		v := flat[i*dim : (i+1)*dim]
		var s float32
		for j, x := range v {
			s += x * q[j]
		}
		if len(top) == k && s <= top[k-1].s {
			continue
		}
		j := sort.Search(len(top), func(j int) bool { return top[j].s < s })
		top = append(top, sc{})
		copy(top[j+1:], top[j:])
		top[j] = sc{ids[i], s}
		if len(top) > k {
			top = top[:k]
		}
	}
	out := make([]int64, len(top))
	for i, t := range top {
		out[i] = t.id
	}
	return out
}

// RecallAt is |approx[:k] ∩ exact[:k]| / min(k, len(exact)).
func RecallAt(approx, exact []int64, k int) float64 {
	want := map[int64]bool{}
	for i, id := range exact {
		if i >= k {
			break
		}
		want[id] = true
	}
	if len(want) == 0 {
		return 0
	}
	n := 0
	for i, id := range approx {
		if i >= k {
			break
		}
		if want[id] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func measureVector(ctx context.Context, env *Env) ([]Figure, error) {
	scales, err := env.scaleCorpora(ctx)
	if err != nil {
		return nil, err
	}
	const group = "4. Query latency (no LLM): vector k-NN against the brute-force bound"
	var figs []Figure
	var bw []float64
	for r := 0; r < env.Runs; r++ {
		bw = append(bw, MemoryBandwidth(5))
	}
	bwMed := Summarise(bw).Median
	figs = append(figs, Figure{ID: "vector.bandwidth_gb_s", Group: group, Name: "memory read bandwidth, one thread (Go loop over 256 MiB, best of 5 per run)", Unit: "GB/s",
		Stat: Stat{Runs: scaleAll(bw, 1e-9)}})
	for si, s := range scales {
		p, err := project.Open(s.Dir)
		if err != nil {
			return figs, err
		}
		qs := pickQuestions(s.Queries, env.questionsFor(s.Chunks))
		qv, err := queryVectors(ctx, p, qs)
		if err != nil {
			p.Close()
			return figs, err
		}
		vs, err := loadVectors(ctx, p.Store())
		if err != nil {
			p.Close()
			return figs, err
		}
		bound := Stat{Runs: []float64{vs.bytes() / bwMed * 1000}}
		boundRef := &Reference{Name: fmt.Sprintf("brute-force bound: %.0f MB of vectors / %.1f GB/s", vs.bytes()/1e6, bwMed/1e9), Command: "(in the same run)", Stat: bound}
		var vecMed, vecP95, goMed []float64
		exact := make([][]int64, len(qs))
		for r := 0; r < env.Runs; r++ {
			var lat, glat []time.Duration
			for i, q := range qv {
				t0 := time.Now()
				near, err := p.Store().NearestChunks(ctx, q, knnK)
				if err != nil {
					p.Close()
					return figs, err
				}
				lat = append(lat, time.Since(t0))
				exact[i] = make([]int64, len(near))
				for j, n := range near {
					exact[i][j] = n.ChunkID
				}
				t0 = time.Now()
				BruteForce(vs.ids, vs.flat, vs.dim, q, knnK)
				glat = append(glat, time.Since(t0))
			}
			vecMed, vecP95 = append(vecMed, Percentile(Millis(lat), 50)), append(vecP95, Percentile(Millis(lat), 95))
			goMed = append(goMed, Percentile(Millis(glat), 50))
		}
		copyRef := func() *Reference { r := *boundRef; return &r }
		fig := Figure{ID: fmt.Sprintf("vector.vec0.%d.p50_ms", s.Chunks), Group: group, Name: fmt.Sprintf("vector k-NN, store.NearestChunks k=%d (int8 index + exact re-score) at %d chunks × %d dims, p50 over %d questions", knnK, s.Chunks, vs.dim, len(qs)), Unit: "ms",
			Stat: Stat{Runs: vecMed}, Reference: copyRef(), Target: "within 3× of the bound (ratio ≤ 3)"}
		figs = append(figs, fig,
			Figure{ID: fmt.Sprintf("vector.vec0.%d.p95_ms", s.Chunks), Group: group, Name: "  the same, p95", Unit: "ms", Stat: Stat{Runs: vecP95}},
			Figure{ID: fmt.Sprintf("vector.goscan.%d.median_ms", s.Chunks), Group: group, Name: fmt.Sprintf("  Go brute-force scan of the same vectors in memory (dot product + top-%d)", knnK), Unit: "ms",
				Stat: Stat{Runs: goMed}, Reference: copyRef()})
		ratio := Summarise(vecMed).Median / bound.Runs[0]
		if si == len(scales)-1 {
			if ratio > 3 {
				env.Notef("vector k-NN at %d chunks is %.1f× the brute-force bound (target ≤ 3×): quantisation experiment below (benchmark only, the store is unchanged)", s.Chunks, ratio)
				more, err := quantExperiment(ctx, env, vs, qv, exact, s.Chunks, Summarise(vecMed).Median)
				figs = append(figs, more...)
				if err != nil {
					p.Close()
					return figs, err
				}
			} else {
				env.Notef("vector k-NN at %d chunks is %.1f× the brute-force bound: within the 3× target, no quantisation experiment", s.Chunks, ratio)
			}
		}
		p.Close()
	}
	return figs, nil
}

func scaleAll(xs []float64, f float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f
	}
	return out
}

// quantVariant is one quantisation of the experiment.
type quantVariant struct {
	name, column, quantise string
	oversample             int
}

var quantVariants = []quantVariant{
	{"binary (1 bit/dim, Hamming), re-scored", "bit[%d]", "vec_quantize_binary(?)", 8},
	{"int8 (unit scale, L2), re-scored", "int8[%d]", "vec_quantize_int8(?, 'unit')", 4},
}

// quantExperiment builds scratch quantised vec0 tables and a float table for
// re-scoring in a temporary database, then times candidate KNN + exact
// re-scoring per question and measures recall against exact KNN.
func quantExperiment(ctx context.Context, env *Env, vs *vectorSet, qv [][]float32, exact [][]int64, chunks int, exactMed float64) ([]Figure, error) {
	const group = "4. Query latency (no LLM): quantisation experiment (benchmark only)"
	db, err := sql.Open("sqlite", "file:"+filepath.Join(env.Tmp, "quant.db")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, "CREATE TABLE fvec(chunk_id INTEGER PRIMARY KEY, e BLOB NOT NULL)"); err != nil {
		return nil, err
	}
	blob := func(i int) []byte {
		b := make([]byte, 4*vs.dim)
		for j, x := range vs.flat[i*vs.dim : (i+1)*vs.dim] {
			binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
		}
		return b
	}
	qblob := func(q []float32) []byte {
		b := make([]byte, 4*len(q))
		for j, x := range q {
			binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
		}
		return b
	}
	insert := func(q string) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		for i, id := range vs.ids {
			if _, err := st.ExecContext(ctx, id, blob(i)); err != nil {
				return err
			}
		}
		st.Close()
		return tx.Commit()
	}
	if err := insert("INSERT INTO fvec(chunk_id, e) VALUES(?, ?)"); err != nil {
		return nil, err
	}
	qs := min(len(qv), 100)
	var figs []Figure
	for vi, v := range quantVariants {
		table := fmt.Sprintf("q%d", vi)
		if _, err := db.ExecContext(ctx, fmt.Sprintf("CREATE VIRTUAL TABLE %s USING vec0(chunk_id INTEGER PRIMARY KEY, e "+v.column+")", table, vs.dim)); err != nil {
			return figs, fmt.Errorf("%s: %w", v.name, err)
		}
		if err := insert(fmt.Sprintf("INSERT INTO %s(chunk_id, e) VALUES(?, %s)", table, v.quantise)); err != nil {
			return figs, fmt.Errorf("%s: %w", v.name, err)
		}
		cand := knnK * v.oversample
		knn := fmt.Sprintf("SELECT chunk_id FROM %s WHERE e MATCH %s AND k = %d", table, v.quantise, cand)
		var med, r10, r50 []float64
		for r := 0; r < env.Runs; r++ {
			var lat []time.Duration
			var s10, s50 float64
			for i := 0; i < qs; i++ {
				t0 := time.Now()
				got, err := quantQuery(ctx, db, knn, qblob(qv[i]))
				if err != nil {
					return figs, fmt.Errorf("%s: %w", v.name, err)
				}
				lat = append(lat, time.Since(t0))
				s10 += RecallAt(got, exact[i], 10)
				s50 += RecallAt(got, exact[i], knnK)
			}
			med = append(med, Percentile(Millis(lat), 50))
			r10, r50 = append(r10, 100*s10/float64(qs)), append(r50, 100*s50/float64(qs))
		}
		ref := &Reference{Name: "exact vec0 KNN (float32, cosine), same questions", Command: "(in the same run)", Stat: Stat{Runs: []float64{exactMed}}}
		name := fmt.Sprintf("%s: %d candidates → exact cosine top-%d, at %d chunks, %d questions", v.name, cand, knnK, chunks, qs)
		figs = append(figs,
			Figure{ID: fmt.Sprintf("vector.quant.%s.median_ms", strings.Fields(v.name)[0]), Group: group, Name: name + ", median latency", Unit: "ms", Stat: Stat{Runs: med}, Reference: ref},
			Figure{ID: fmt.Sprintf("vector.quant.%s.recall10", strings.Fields(v.name)[0]), Group: group, Name: "  recall@10 against exact KNN", Unit: "%", Stat: Stat{Runs: r10}},
			Figure{ID: fmt.Sprintf("vector.quant.%s.recall50", strings.Fields(v.name)[0]), Group: group, Name: fmt.Sprintf("  recall@%d against exact KNN", knnK), Unit: "%", Stat: Stat{Runs: r50}})
	}
	return figs, nil
}

// quantQuery runs the quantised KNN, then re-scores the candidates with the
// exact cosine distance from the float table.
func quantQuery(ctx context.Context, db *sql.DB, knn string, q []byte) ([]int64, error) {
	rows, err := db.QueryContext(ctx, knn, q)
	if err != nil {
		return nil, err
	}
	var cand []any
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		cand = append(cand, id)
	}
	rows.Close()
	if len(cand) == 0 {
		return nil, rows.Err()
	}
	// The candidates are ?1..?N, the question ?N+1.
	args := append(cand, q)
	rows, err = db.QueryContext(ctx, fmt.Sprintf("SELECT chunk_id FROM fvec WHERE chunk_id IN (%s) ORDER BY vec_distance_cosine(e, ?%d) LIMIT %d",
		strings.TrimSuffix(strings.Repeat("?,", len(cand)), ","), len(cand)+1, knnK), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
