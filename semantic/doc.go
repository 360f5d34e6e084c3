// Package semantic is semantic tool search: a toolsearch strategy
// ([New], [Strategy]) that fuses the hybrid strategy's ranking with an
// embedding model's, and the parts it is built of, which do not depend on
// a model: the [Embedder] interface an embedding model is used through
// (package tsopenai has one over OpenAI-compatible servers), an exact
// nearest-neighbour search over the tools' vectors ([Vectors]), and a
// store that keeps the vectors across restarts so that an unchanged tool
// is never embedded twice.
//
// # The strategy
//
// [New] returns a toolsearch.Strategy for SearchOptions.Strategy. Tools
// are embedded in the background as soon as they are registered or
// change; a query is embedded when it is searched (one Embed call of one
// text, within Options.QueryTimeout) and ranked by the hybrid strategy
// and by the nearest tool vectors, fused by a weighted sum. When the
// query cannot be embedded, or a tool's vector is not ready, tools are
// ranked by keywords and Result.Notes says so: a search never fails
// because of the Embedder. See [Strategy] for the ranking, the failures
// and who owns the background work.
//
// # Vectors and similarity
//
// Every vector is normalised to unit length ([Normalize]) and compared by
// dot product, which for unit vectors is the cosine similarity. Vectors of
// the wrong length, with a NaN or infinite element, or all zero are
// refused with an error wrapping [ErrInvalidVector].
//
// # Exact search
//
// Below 32,768 vectors, [Vectors.Search] returns the same k vectors, in the same order, as
// scoring every vector in float32 and sorting (score descending, then row
// ascending), without scoring every vector in float32: it first scans an
// int8 code of each vector, a quarter of the bytes, and scores exactly only
// the vectors whose code score, plus a proven bound on the code's error,
// could still beat the k-th best found so far. On amd64 the code scan uses
// AVX2 when the CPU has it (build tag purego disables it); elsewhere it is
// plain Go. Large scans are split across GOMAXPROCS goroutines.
//
// # Large sets
//
// From 32,768 vectors on (of at most 4096 dimensions), a search reads a
// sign code of each vector first: one bit per dimension of a fixed random
// rotation (the code of RaBitQ), an eighth of the int8 code, looked up 32
// vectors at a time in tables of the query (AVX2 where the CPU has it).
// Only the vectors whose estimate from it, plus twice the standard
// deviation of its error, could beat the k-th best found so far go on to
// the int8 code and their exact score; a chunk of vectors of which many
// could is scanned whole instead. The scores returned are exact, but the
// estimate's bound is statistical, not proven: a true neighbour whose
// estimate falls far below its score can be missed. Measured, the search
// keeps at least 99% of the exact top 10 on random vectors (their worst
// case: 99.6%) and all of it on clustered vectors and real USE-Lite
// embeddings, where it also reads a fifth to a quarter of the bytes
// (BENCHMARKS.md, TestStagedRecall). Smaller sets are searched exactly.
//
// Measured on a 2-core x86-64 machine (top 10 of 100,000 random vectors,
// both cores): 1.0 ms at 256 dimensions, 1.6 ms at 384, 2.8 ms at 768,
// 10 ms at 1536, where scoring every vector in float32 takes 8, 12, 31 and
// 55 ms. Ranking by the int8 code alone would be no faster and would miss
// 1 to 3 of every 100 true top-10 neighbours (on random and on clustered
// data); storing only float32 would save a fifth of the memory. Each
// vector takes 4×dims bytes, plus dims rounded up to a multiple of 32, plus
// 8, plus its sign code: dims/8 rounded up to a multiple of 8, plus 12
// (60 bytes at 384 dimensions, 3% of the vector).
//
// # Stored vectors
//
// A [Store] keeps vectors across restarts under [KeyOf] (a hash of the
// embedded text and the Embedder's Model), so a text is embedded again only
// when it or the model changes. [FileStore] keeps them in one file per
// model and dimension: read whole at open, rewritten atomically by
// [FileStore.Flush], bounded by [FileStoreOptions.MaxVectors] (least
// recently used dropped first). A file of another model or dimension is
// refused ([ErrStoreMismatch]); a damaged one too ([ErrCorruptStore]).
//
// # Concurrency
//
// [Strategy], [Vectors] and [FileStore] are safe for concurrent use;
// searches never wait for writers. An [Embedder] must be safe for
// concurrent use too.
package semantic
