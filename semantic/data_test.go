package semantic

import (
	"math"
	"math/rand/v2"
)

// randomVectors returns n vectors of length dims with independent standard
// normal elements: directions spread uniformly over the sphere, where the
// nearest neighbours of a query are barely closer than the rest (the hard
// case for quantisation).
func randomVectors(rng *rand.Rand, n, dims int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		out[i] = v
	}
	return out
}

// clusteredVectors returns n vectors around clusters random centres: each
// is its centre plus noise of the same norm, so that vectors of a cluster
// have a cosine similarity of about 0.5 to each other and about 0 to the
// rest, as tools of one server or topic do. Vector i belongs to cluster
// i % clusters.
func clusteredVectors(rng *rand.Rand, n, dims, clusters int) [][]float32 {
	centres := randomVectors(rng, clusters, dims)
	out := make([][]float32, n)
	for i := range out {
		c := centres[i%clusters]
		cn := float32(norm64(c))
		v := make([]float32, dims)
		for j := range v {
			v[j] = c[j]/cn + float32(rng.NormFloat64()/math.Sqrt(float64(dims)))
		}
		out[i] = v
	}
	return out
}

// fill returns a Vectors holding vecs.
func fill(dims int, vecs [][]float32) *Vectors {
	v, err := NewVectors(dims)
	if err != nil {
		panic(err)
	}
	if _, err := v.Append(vecs...); err != nil {
		panic(err)
	}
	return v
}

// nearDuplicates returns n copies of one random vector, each with noise of
// relative size 1e-3.
func nearDuplicates(rng *rand.Rand, n, dims int) [][]float32 {
	base := randomVectors(rng, 1, dims)[0]
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dims)
		for j := range v {
			v[j] = base[j] + float32(rng.NormFloat64()*1e-3)
		}
		out[i] = v
	}
	return out
}
