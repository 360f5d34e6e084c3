package semantic

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const testModel = "test-model dimensions=3"

func TestKeyOf(t *testing.T) {
	k := KeyOf("m", "text")
	assert.Equal(t, k, KeyOf("m", "text"), "deterministic")
	assert.NotEqual(t, k, KeyOf("m2", "text"), "the model is part of the key")
	assert.NotEqual(t, k, KeyOf("m", "text2"), "the text is part of the key")
	assert.NotEqual(t, KeyOf("ab", "c"), KeyOf("a", "bc"), "model and text cannot run into each other")
	// Pinned: another hash would make every stored vector unreachable.
	// SHA-256 of the model's length (8 bytes, little-endian), model, text.
	assert.Equal(t, "fba7b3f7357b8b6ab00f8ce23e662ce2256285c585e14d99922bdaeae30d6d29", hex.EncodeToString(k[:]))
	sum := KeyOf("", "")
	assert.Equal(t, "af5570f5a1810b7af78caf4bc70a660f0df51e42baf91d4de5b2328de0e83dfc", hex.EncodeToString(sum[:]), "SHA-256 of eight zero bytes (the model length)")
}

func openStore(t *testing.T, path string, max int) *FileStore {
	t.Helper()
	s, err := OpenFileStore(path, testModel, 3, &FileStoreOptions{MaxVectors: max})
	require.NoError(t, err)
	return s
}

func TestFileStoreRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vectors.bin")
	s := openStore(t, path, 0)
	assert.Equal(t, 0, s.Len(), "a missing file is an empty store")
	require.NoError(t, s.Flush())
	assert.NoFileExists(t, path, "nothing to write: no file")

	a, b := KeyOf(testModel, "alpha"), KeyOf(testModel, "beta")
	va := []float32{1, 2, 3}
	require.NoError(t, s.Put(a, va))
	va[0] = 100 // the store keeps its own copy
	require.NoError(t, s.Put(b, []float32{0, -1, 0.5}))
	got, ok := s.Get(a)
	require.True(t, ok)
	assert.Equal(t, []float32{1, 2, 3}, got)
	got[1] = 100 // Get returns a copy
	got, _ = s.Get(a)
	assert.Equal(t, []float32{1, 2, 3}, got)
	_, ok = s.Get(KeyOf(testModel, "gamma"))
	assert.False(t, ok)
	require.NoError(t, s.Flush())

	s2 := openStore(t, path, 0)
	assert.Equal(t, 2, s2.Len())
	got, ok = s2.Get(b)
	require.True(t, ok)
	assert.Equal(t, []float32{0, -1, 0.5}, got)
	got, ok = s2.Get(a)
	require.True(t, ok)
	assert.Equal(t, []float32{1, 2, 3}, got)

	// Put over a key replaces its vector.
	require.NoError(t, s2.Put(a, []float32{3, 2, 1}))
	require.NoError(t, s2.Flush())
	got, _ = openStore(t, path, 0).Get(a)
	assert.Equal(t, []float32{3, 2, 1}, got)

	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file is left behind")
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
}

func TestFileStoreFlushWritesOnlyChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	s := openStore(t, path, 0)
	require.NoError(t, s.Put(KeyOf(testModel, "x"), []float32{1, 0, 0}))
	require.NoError(t, s.Flush())
	require.NoError(t, os.Remove(path))
	_, _ = s.Get(KeyOf(testModel, "x"))
	require.NoError(t, s.Flush())
	assert.NoFileExists(t, path, "a Get changes nothing worth writing")
	require.NoError(t, s.Put(KeyOf(testModel, "y"), []float32{0, 1, 0}))
	require.NoError(t, s.Flush())
	assert.Equal(t, 2, openStore(t, path, 0).Len())
}

// The file format is pinned: a change would make every stored file
// unreadable (the version must change instead).
func TestFileStoreGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	s := openStore(t, path, 0)
	require.NoError(t, s.Put(KeyOf(testModel, "read a file"), []float32{0.6, 0.8, 0}))
	require.NoError(t, s.Put(KeyOf(testModel, "send an email"), []float32{-1, 0, 0}))
	require.NoError(t, s.Flush())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	golden := filepath.Join("testdata", "vectors_v1.hex")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(hex.Dump(got)), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update to create %s", golden)
	assert.Equal(t, string(want), hex.Dump(got), "the file differs from %s", golden)
}

func TestFileStoreBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	s := openStore(t, path, 3)
	key := func(i int) Key { return KeyOf(testModel, fmt.Sprint(i)) }
	for i := range 3 {
		require.NoError(t, s.Put(key(i), []float32{float32(i + 1), 0, 0}))
	}
	_, ok := s.Get(key(0)) // 0 is now the most recently used
	require.True(t, ok)
	require.NoError(t, s.Put(key(3), []float32{4, 0, 0}))
	assert.Equal(t, 3, s.Len())
	_, ok = s.Get(key(1))
	assert.False(t, ok, "the least recently used vector is dropped")
	for _, i := range []int{0, 2, 3} {
		_, ok = s.Get(key(i))
		assert.True(t, ok, "vector %d kept", i)
	}
	require.NoError(t, s.Flush()) // recency now 0, 2, 3 (3 most recent)

	small := openStore(t, path, 2)
	assert.Equal(t, 2, small.Len(), "a file over the bound keeps the most recently used")
	_, ok = small.Get(key(0))
	assert.False(t, ok)
	require.NoError(t, small.Flush())
	assert.Equal(t, 2, openStore(t, path, 0).Len(), "and the next Flush writes the trimmed file")
}

func TestFileStorePutErrors(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "v"), 0)
	err := s.Put(Key{}, []float32{1, 2})
	require.ErrorIs(t, err, ErrInvalidVector)
	assert.EqualError(t, err, "semantic: invalid vector: length 2, want 3")
	assert.ErrorIs(t, s.Put(Key{}, []float32{0, float32(math.NaN()), 0}), ErrInvalidVector)
	assert.ErrorIs(t, s.Put(Key{}, []float32{0, 0, 0}), ErrInvalidVector)
	assert.Equal(t, 0, s.Len())
}

func TestOpenFileStoreArguments(t *testing.T) {
	dir := t.TempDir()
	_, err := OpenFileStore(filepath.Join(dir, "v"), "m", 0, nil)
	assert.ErrorContains(t, err, "dimension 0 is not between 1 and 65536")
	_, err = OpenFileStore(filepath.Join(dir, "v"), string(make([]byte, 5000)), 3, nil)
	assert.ErrorContains(t, err, "model identity of 5000 bytes is over 4096")
	for _, n := range []int{0, -1} {
		s, err := OpenFileStore(filepath.Join(dir, "v"), "m", 3, &FileStoreOptions{MaxVectors: n})
		require.NoError(t, err)
		assert.Equal(t, defaultMaxVectors, s.max, "MaxVectors %d means the default", n)
	}
	_, err = OpenFileStore(dir, "m", 3, nil)
	assert.EqualError(t, err, "semantic: open vector file: "+dir+" is not a regular file but a directory")
}

func TestFileStoreMismatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	s := openStore(t, path, 0)
	require.NoError(t, s.Put(KeyOf(testModel, "x"), []float32{1, 0, 0}))
	require.NoError(t, s.Flush())

	_, err := OpenFileStore(path, "other-model", 3, nil)
	require.ErrorIs(t, err, ErrStoreMismatch)
	assert.EqualError(t, err, path+`: semantic: vector file is for another model: it holds vectors of "test-model dimensions=3" (3 dimensions), not "other-model" (3 dimensions)`)
	_, err = OpenFileStore(path, testModel, 4, nil)
	require.ErrorIs(t, err, ErrStoreMismatch)
	assert.ErrorContains(t, err, `(3 dimensions), not "test-model dimensions=3" (4 dimensions)`)
}

// validFile returns the bytes of a vector file of model testModel, 3
// dimensions, holding vecs under keys 0, 1, ….
func validFile(t testing.TB, vecs ...[]float32) []byte {
	var entries []*stored
	for i, v := range vecs {
		entries = append(entries, &stored{key: KeyOf(testModel, fmt.Sprint(i)), vec: v})
	}
	var buf bytes.Buffer
	require.NoError(t, writeStore(&buf, testModel, 3, entries))
	return buf.Bytes()
}

// fixChecksum rewrites the last 4 bytes of b as the checksum of the rest.
func fixChecksum(b []byte) []byte {
	b = bytes.Clone(b)
	if len(b) >= 4 {
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
	}
	return b
}

func TestFileStoreCorrupt(t *testing.T) {
	good := validFile(t, []float32{1, 0, 0}, []float32{0, 1, 0})
	vec0 := headerLen + len(testModel) + 32 // offset of vector 0's first element
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "0 bytes, too short for the 24-byte header"},
		{"not a vector file", []byte("hello, this is some other file"), `does not start with "TSVECTOR"`},
		{"newer version", fixChecksum(edit(func(b []byte) []byte { b[8] = 2; return b })), "format version 2, this package reads version 1"},
		{"truncated", good[:len(good)-10], fmt.Sprintf("%d bytes, but its header (2 vectors of 3 dimensions) says %d: truncated or damaged", len(good)-10, len(good))},
		{"trailing bytes", append(bytes.Clone(good), 0), "truncated or damaged"},
		{"count too large", edit(func(b []byte) []byte { b[16] = 200; return b }), "header (200 vectors of 3 dimensions)"},
		{"dimension zero", edit(func(b []byte) []byte { b[12] = 0; return b }), "dimension 0 is not between 1 and 65536"},
		{"huge model length", edit(func(b []byte) []byte { b[23] = 1; return b }), "model identity of 16777239 bytes, over 4096"},
		{"flipped bit", edit(func(b []byte) []byte { b[vec0] ^= 1; return b }), "checksum"},
		{"NaN element", fixChecksum(edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[vec0+4:], math.Float32bits(float32(math.NaN())))
			return b
		})), "vector 0: semantic: invalid vector: element 1 is NaN"},
		{"repeated key", fixChecksum(edit(func(b []byte) []byte {
			copy(b[vec0+12:vec0+44], b[vec0-32:vec0])
			return b
		})), "vector 1 repeats the key of an earlier one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "v")
			require.NoError(t, os.WriteFile(path, tt.data, 0o600))
			_, err := OpenFileStore(path, testModel, 3, nil)
			require.ErrorIs(t, err, ErrCorruptStore)
			assert.ErrorContains(t, err, path+": semantic: corrupt vector file: ")
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

// A failed Flush leaves the file as it was and no temporary file behind.
func TestFileStoreFlushFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v")
	require.NoError(t, os.Mkdir(path, 0o755)) // rename over a directory fails
	s := openStoreAt(t, filepath.Join(dir, "v2"))
	s.path = path
	require.NoError(t, s.Put(KeyOf(testModel, "x"), []float32{1, 0, 0}))
	err := s.Flush()
	require.Error(t, err)
	assert.ErrorContains(t, err, "semantic: write vector file: ")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only the directory: no temporary file left")
	assert.True(t, entries[0].IsDir())

	_, err = OpenFileStore(filepath.Join(dir, "missing", "v"), testModel, 3, nil)
	require.NoError(t, err, "a missing directory is an empty store")
	s = openStoreAt(t, filepath.Join(dir, "missing", "v"))
	require.NoError(t, s.Put(KeyOf(testModel, "x"), []float32{1, 0, 0}))
	assert.Error(t, s.Flush(), "the directory is not created")
}

func openStoreAt(t *testing.T, path string) *FileStore { return openStore(t, path, 0) }

// Puts, Gets and Flushes from several goroutines (run with -race): every
// vector put is then in the file.
func TestFileStoreConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	s := openStore(t, path, 0)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				k := KeyOf(testModel, fmt.Sprint(g, i))
				assert.NoError(t, s.Put(k, []float32{float32(g), float32(i), 1}))
				got, ok := s.Get(k)
				assert.True(t, ok)
				assert.Equal(t, []float32{float32(g), float32(i), 1}, got)
				if i%10 == 0 {
					assert.NoError(t, s.Flush())
				}
			}
		})
	}
	wg.Wait()
	require.NoError(t, s.Flush())
	s2 := openStore(t, path, 0)
	assert.Equal(t, 200, s2.Len())
	for g := range 4 {
		for i := range 50 {
			got, ok := s2.Get(KeyOf(testModel, fmt.Sprint(g, i)))
			require.True(t, ok)
			assert.Equal(t, []float32{float32(g), float32(i), 1}, got)
		}
	}
}

// FuzzReadStore feeds the file reader arbitrary bytes, and the same bytes
// with a valid checksum (so that the fuzzer gets past it). The reader
// never panics; it refuses with ErrCorruptStore or ErrStoreMismatch, or
// returns valid vectors that write back to the same bytes.
func FuzzReadStore(f *testing.F) {
	f.Add(validFile(f), false)
	f.Add(validFile(f, []float32{1, 0, 0}), false)
	f.Add(validFile(f, []float32{1, 0, 0}, []float32{0.5, -2, 3e-39}, []float32{0, 0, 1}), true)
	f.Add([]byte("TSVECTOR"), true)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			data = fixChecksum(data)
		}
		entries, err := readStore(bytes.NewReader(data), int64(len(data)), testModel, 3)
		if err != nil {
			if !assert.True(t, errorsIsAny(err, ErrCorruptStore, ErrStoreMismatch), "unexpected error: %v", err) {
				return
			}
			assert.Nil(t, entries)
			return
		}
		seen := map[Key]bool{}
		for i, e := range entries {
			_, err := check(e.vec, 3)
			assert.NoError(t, err, "vector %d", i)
			assert.False(t, seen[e.key], "vector %d: repeated key", i)
			seen[e.key] = true
		}
		var buf bytes.Buffer
		require.NoError(t, writeStore(&buf, testModel, 3, entries))
		assert.Equal(t, data, buf.Bytes(), "a file read back writes the same bytes")
	})
}

func errorsIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}
