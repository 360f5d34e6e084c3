package semantic

import (
	"cmp"
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/toolsearch/toolsearch/internal/openfile"
)

// Key identifies a vector in a [Store]: see [KeyOf].
type Key [sha256.Size]byte

// KeyOf returns the key of the vector of text embedded by model (an
// [Embedder]'s Model): the SHA-256 hash of both, so that a vector is found
// again only for the same text and the same model and settings.
func KeyOf(model, text string) Key {
	h := sha256.New()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(model)))
	h.Write(n[:])
	h.Write([]byte(model))
	h.Write([]byte(text))
	var k Key
	h.Sum(k[:0])
	return k
}

// Store keeps vectors across restarts, keyed by [KeyOf], so that an
// unchanged text is never embedded twice. Implementations must be safe for
// concurrent use. [FileStore] is the implementation in this package.
type Store interface {
	// Get returns a copy of the vector stored under key, or ok false if
	// there is none.
	Get(key Key) (vec []float32, ok bool)
	// Put stores a copy of vec under key, replacing any vector stored
	// there. It returns an error wrapping [ErrInvalidVector] if vec cannot
	// be stored.
	Put(key Key, vec []float32) error
	// Flush makes the vectors put so far survive a restart.
	Flush() error
}

var (
	// ErrStoreMismatch is returned (wrapped) by [OpenFileStore] for a file
	// written for another model or dimension.
	ErrStoreMismatch = errors.New("semantic: vector file is for another model")
	// ErrCorruptStore is returned (wrapped, with what was wrong) by
	// [OpenFileStore] for a file it cannot read: not a vector file,
	// truncated, failing its checksum, or of an unknown format version.
	ErrCorruptStore = errors.New("semantic: corrupt vector file")
)

// FileStoreOptions are the settings of a [FileStore]. The zero value
// gives the defaults; a zero or negative number means its default.
type FileStoreOptions struct {
	// MaxVectors bounds the number of vectors kept: when a Put would
	// exceed it, the vector used (got or put) least recently is dropped,
	// and a file holding more keeps its most recently used ones. 0 or
	// less means 100,000 (about 600 MB in memory and on disk at 1536 dimensions,
	// 150 MB at 384).
	MaxVectors int
}

const defaultMaxVectors = 100_000

// FileStore is a [Store] kept in one file for one model and dimension.
// Vectors are held in memory; [FileStore.Flush] rewrites the file
// atomically (a temporary file in the same directory, synced, then renamed
// over it, mode 0600), so a crash leaves either the old or the new file,
// never a mix. The file starts with a versioned header naming the model
// and dimension and ends with a checksum.
//
// A FileStore is safe for concurrent use. Processes sharing a file do not
// see each other's vectors until they reopen it, and the last Flush wins:
// vectors only another process added are then embedded again later.
type FileStore struct {
	path  string
	model string
	dims  int
	max   int

	flushMu sync.Mutex // serialises Flush
	mu      sync.Mutex // guards the fields below
	lru     *list.List // of *stored, most recently used at the front
	byKey   map[Key]*list.Element
	changes uint64 // count of Puts and evictions, for Flush
	flushed uint64 // changes at the last Flush (or open)
}

type stored struct {
	key Key
	vec []float32 // never modified once stored
}

// OpenFileStore opens the vector file at path for vectors of model and
// dimension dims (an [Embedder]'s Model and Dimensions) and reads it into
// memory. A missing file is an empty store; the first Flush creates it
// (its directory must exist).
// A file written for another model or dimension is refused with an error
// wrapping [ErrStoreMismatch] (remove it, or use another path); a file
// that cannot be read, with an error wrapping [ErrCorruptStore]. opts may
// be nil.
func OpenFileStore(path, model string, dims int, opts *FileStoreOptions) (*FileStore, error) {
	if dims <= 0 || dims > maxDims {
		return nil, fmt.Errorf("semantic: open %s: dimension %d is not between 1 and %d", path, dims, maxDims)
	}
	if len(model) > maxModelLen {
		return nil, fmt.Errorf("semantic: open %s: model identity of %d bytes is over %d", path, len(model), maxModelLen)
	}
	var o FileStoreOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxVectors <= 0 {
		o.MaxVectors = defaultMaxVectors
	}
	s := &FileStore{
		path: path, model: model, dims: dims, max: o.MaxVectors,
		lru: list.New(), byKey: map[Key]*list.Element{},
	}
	// Opened without waiting: a FIFO or a device at path is refused
	// instead of holding open(2) forever.
	f, fi, err := openfile.OpenRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("semantic: open vector file: %w", err)
	}
	defer f.Close()
	entries, err := readStore(f, fi.Size(), model, dims)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// The file lists vectors least recently used first. Trimmed to the
	// bound, the store differs from its file: the next Flush writes it.
	if len(entries) > s.max {
		entries = entries[len(entries)-s.max:]
		s.changes++
	}
	for _, e := range entries {
		s.byKey[e.key] = s.lru.PushFront(e)
	}
	return s, nil
}

// Len returns the number of vectors in the store.
func (s *FileStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}

// Get returns a copy of the vector stored under key, or ok false.
func (s *FileStore) Get(key Key) ([]float32, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.byKey[key]
	if !ok {
		return nil, false
	}
	s.lru.MoveToFront(el)
	return slices.Clone(el.Value.(*stored).vec), true
}

// Put stores a copy of vec under key. vec must have the store's dimension
// and finite, not all zero, elements (see [Normalize]; it is stored as
// given, not normalised).
func (s *FileStore) Put(key Key, vec []float32) error {
	if _, err := check(vec, s.dims); err != nil {
		return err
	}
	e := &stored{key: key, vec: slices.Clone(vec)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changes++
	if el, ok := s.byKey[key]; ok {
		el.Value = e
		s.lru.MoveToFront(el)
		return nil
	}
	s.byKey[key] = s.lru.PushFront(e)
	for s.lru.Len() > s.max {
		old := s.lru.Remove(s.lru.Back()).(*stored)
		delete(s.byKey, old.key)
	}
	return nil
}

// Flush writes the store to its file if it changed since it was opened or
// last flushed. On error the file is left as it was.
func (s *FileStore) Flush() error {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	s.mu.Lock()
	if s.changes == s.flushed {
		s.mu.Unlock()
		return nil
	}
	changes := s.changes
	entries := make([]*stored, 0, s.lru.Len())
	for el := s.lru.Back(); el != nil; el = el.Prev() {
		entries = append(entries, el.Value.(*stored))
	}
	s.mu.Unlock()

	if err := s.writeFile(entries); err != nil {
		return fmt.Errorf("semantic: write vector file: %w", err)
	}
	s.mu.Lock()
	s.flushed = changes
	s.mu.Unlock()
	return nil
}

// writeFile writes entries to a temporary file beside the store's file and
// renames it over it.
func (s *FileStore) writeFile(entries []*stored) (err error) {
	dir, base := filepath.Split(s.path)
	tmp, err := os.CreateTemp(dir, base+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = writeStore(tmp, s.model, s.dims, entries); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), s.path); err != nil {
		return err
	}
	// Make the rename itself durable where the platform allows it.
	if d, derr := os.Open(filepath.Clean(cmp.Or(dir, "."))); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
