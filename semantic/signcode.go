package semantic

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// A large set is searched in two stages (see stage.go). The first reads
// a sign code of each vector: one bit per dimension, an eighth of the
// int8 code. It is the code of RaBitQ (Gao and Long, SIGMOD 2024): the
// unit vector v is first rotated by a fixed random orthogonal map P (the
// same for every vector and query of a dimension), and its code is
// x = sign(P·v)/√d, a unit vector. With o = x·(P·v) = ‖P·v‖₁/√d, the
// estimate of q·v for a unit query q is (x·(P·q))/o. Because P is random,
// the error of the estimate behaves like a centred normal variable with
// standard deviation at most
//
//	σ = √(1 − o²) / (o·√(d − 1))
//
// whatever the vectors (o is about 0.8 for most vectors, so σ ≈ 0.75/√d:
// 0.038 at 384 dimensions). A search skips a row whose estimate plus
// stageSigmas·σ cannot beat the k-th exact score found so far; any other
// row goes on to the int8 code and its proven bound (quantize.go), then
// to its exact score. Unlike the int8 bound, this one is not proven: a
// true neighbour is lost when its estimate falls more than stageSigmas·σ
// below its score, which for a normal error happens with probability
// 2.3% at 2σ; but a neighbour is lost only if, besides, the rows seen
// before it already hold k better exact scores, and most true neighbours
// stand further above the k-th score than that. TestStagedRecall measures
// what is lost.
//
// The query side of x·(P·q) is computed on a 4-bit code of P·q (RaBitQ
// does the same): P·q ≈ lo + Δ·u with u in [0, 15], so that
// x·(P·q) = (2·Σ_{bit i set}(P·q)_i − Σ_i (P·q)_i)/√d, and
// Σ_{bit i set} u_i is read from tables of u, one per 4 dimensions, 16
// entries each (signsums.go). The rounding error e of the query's code adds x·e/o to the
// estimate, of standard deviation ‖e‖/(o·√d) for a random P, which the
// bound adds too.

// stageSigmas is how many standard deviations of the estimate's error
// the first stage allows before ruling a row out.
const stageSigmas = 2

// rotationRounds is the number of rounds of the rotation P: more rounds
// mix the coordinates better, at d·log d operations each.
const rotationRounds = 3

// rotation is the fixed random orthogonal map P of one dimension d: each
// round flips the signs of the coordinates at random, applies the
// normalised Walsh–Hadamard transform to the first L coordinates (L the
// largest power of two ≤ d), flips signs again and applies it to the last
// L. Each step is orthogonal, so P is.
type rotation struct {
	d, l  int
	signs []float32 // 2·rotationRounds runs of d values ±1
}

func newRotation(d int) *rotation {
	l := 1
	for l*2 <= d {
		l *= 2
	}
	rng := rand.New(rand.NewPCG(0x5eed, uint64(d)))
	signs := make([]float32, 2*rotationRounds*d)
	for i := range signs {
		signs[i] = 1
		if rng.IntN(2) == 0 {
			signs[i] = -1
		}
	}
	return &rotation{d: d, l: l, signs: signs}
}

// apply writes P·src to dst (both of length d).
func (p *rotation) apply(dst, src []float32) {
	copy(dst, src)
	norm := float32(1 / math.Sqrt(float64(p.l)))
	for r := range 2 * rotationRounds {
		for i, s := range p.signs[r*p.d : (r+1)*p.d] {
			dst[i] *= s
		}
		part := dst[:p.l]
		if r%2 == 1 {
			part = dst[p.d-p.l:]
		}
		hadamard(part, norm)
	}
}

// hadamard applies the Walsh–Hadamard transform to x (whose length is a
// power of two) and multiplies by norm.
func hadamard(x []float32, norm float32) {
	n := len(x)
	for h := 1; h < n; h *= 2 {
		for i := 0; i < n; i += 2 * h {
			a, b := x[i:i+h:i+h], x[i+h:i+2*h:i+2*h]
			for j := range a {
				a[j], b[j] = a[j]+b[j], a[j]-b[j]
			}
		}
	}
	for i := range x {
		x[i] *= norm
	}
}

// signBytes returns the bytes of a sign code of d bits: a whole number
// of 64-bit words, so that the kernel reads byte positions in pairs.
func signBytes(d int) int { return (d + 63) / 64 * 8 }

// signMeta is what the estimate of a row needs besides its bits.
type signMeta struct {
	invO  float32 // 1/o
	sigma float32 // stageSigmas·σ, σ as in the comment above
	ones  int32   // number of bits set
}

// encodeSign writes the sign code of P·v to row r of signs, a blocked
// table of codes of cb bytes (see signsums.go), and returns its meta; rot
// holds P·v on return. v is a unit vector.
func encodeSign(p *rotation, v, rot []float32, signs []byte, r, cb int) signMeta {
	p.apply(rot, v)
	var l1, l2 float64
	var m signMeta
	for j := range cb {
		var c byte
		for b := range 8 {
			if i := 8*j + b; i < len(rot) && rot[i] > 0 {
				c |= 1 << b
			}
		}
		signs[signAt(r, j, cb)] = c
		m.ones += int32(bits.OnesCount8(c))
	}
	for _, x := range rot {
		l1 += math.Abs(float64(x))
		l2 += float64(x) * float64(x)
	}
	d := float64(len(v))
	o := l1 / math.Sqrt(d*l2) // l2 is 1 up to rounding
	m.invO = float32(1 / o)
	if len(v) > 1 {
		m.sigma = float32(stageSigmas * math.Sqrt(max(0, 1-o*o)) / (o * math.Sqrt(d-1)))
	}
	return m
}

// signQuery is the query side of the first stage: the tables of the 4-bit
// code u of P·q (see signsums.go) and what turns a table sum into an
// estimate.
type signQuery struct {
	lut []byte // the tables of each byte position, signLUT bytes each
	rot []float32
	// The estimate plus its allowance for a row with meta m and table
	// sum ps is (a·ps + b·m.ones + c)·m.invO + m.sigma (see upper).
	a, b, c float32
	sigma   float32 // stageSigmas·‖e‖/√d, e the rounding error of u
}

func newSignQuery(d int) *signQuery {
	return &signQuery{lut: make([]byte, signLUT*signBytes(d)), rot: make([]float32, d)}
}

// set encodes the unit query q.
func (s *signQuery) set(p *rotation, q []float32) {
	p.apply(s.rot, q)
	lo, hi := s.rot[0], s.rot[0]
	var sum float64
	for _, x := range s.rot {
		lo, hi = min(lo, x), max(hi, x)
		sum += float64(x)
	}
	dl := (hi - lo) / 15
	if dl == 0 {
		dl = 1
	}
	var u [8]byte
	var e2 float64
	for j := range len(s.lut) / signLUT {
		for b := range u {
			u[b] = 0
			if i := 8*j + b; i < len(s.rot) {
				x := s.rot[i]
				c := min(15, max(0, int(math.Round(float64((x-lo)/dl)))))
				u[b] = byte(c)
				e := float64(x) - float64(lo+dl*float32(c))
				e2 += e * e
			}
		}
		fillLUT(s.lut[j*signLUT:(j+1)*signLUT], &u)
	}
	// With x the row's code (±1/√d) and P·q ≈ lo + dl·u, x·(P·q) is
	// (2·(lo·ones + dl·ps) − Σ(P·q))/√d; the estimate divides it by o and
	// the allowance adds stageSigmas·‖e‖/(o·√d) for the rounding error e.
	d := float64(len(q))
	scale := float32(1 / math.Sqrt(d))
	s.a = 2 * dl * scale
	s.b = 2 * lo * scale
	s.sigma = float32(stageSigmas * math.Sqrt(e2/d))
	s.c = s.sigma - float32(sum)*scale
}

// upper returns the estimate of q·v plus its allowance, for a row with
// meta m whose table sum is ps.
func (s *signQuery) upper(m signMeta, ps uint16) float32 {
	return (s.a*float32(ps)+s.b*float32(m.ones)+s.c)*m.invO + m.sigma
}
