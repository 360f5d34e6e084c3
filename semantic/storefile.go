package semantic

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// The vector file, all integers little-endian:
//
//	magic      8 bytes "TSVECTOR"
//	version    uint32, 1
//	dims       uint32
//	count      uint32
//	model len  uint32, at most maxModelLen
//	model      that many bytes (the Embedder's Model)
//	count records, least recently used first:
//	  key      32 bytes
//	  vector   dims float32 (IEEE 754 bits)
//	checksum   uint32, CRC-32C of every byte before it

const (
	fileMagic   = "TSVECTOR"
	fileVersion = 1
	headerLen   = 8 + 4*4
	maxModelLen = 4096
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// writeStore writes a vector file of entries to w.
func writeStore(w io.Writer, model string, dims int, entries []*stored) error {
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<16)
	var hdr [headerLen]byte
	copy(hdr[:], fileMagic)
	binary.LittleEndian.PutUint32(hdr[8:], fileVersion)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(dims))
	binary.LittleEndian.PutUint32(hdr[16:], uint32(len(entries)))
	binary.LittleEndian.PutUint32(hdr[20:], uint32(len(model)))
	bw.Write(hdr[:])
	bw.WriteString(model)
	var f [4]byte
	for _, e := range entries {
		bw.Write(e.key[:])
		for _, x := range e.vec {
			binary.LittleEndian.PutUint32(f[:], math.Float32bits(x))
			bw.Write(f[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(f[:], crc.Sum32())
	_, err := w.Write(f[:])
	return err
}

// readStore reads a vector file of size bytes from r, for model and dims.
// It checks the header and the size before reading any record, so a
// damaged header cannot make it allocate more than the file holds.
func readStore(r io.Reader, size int64, model string, dims int) ([]*stored, error) {
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrCorruptStore}, args...)...)
	}
	// Everything but the checksum is read through rd, which feeds crc.
	br := bufio.NewReaderSize(io.LimitReader(r, size), 1<<16)
	crc := crc32.New(castagnoli)
	rd := io.TeeReader(br, crc)
	var hdr [headerLen]byte
	if _, err := io.ReadFull(rd, hdr[:]); err != nil {
		return nil, corrupt("%d bytes, too short for the %d-byte header", size, headerLen)
	}
	if string(hdr[:8]) != fileMagic {
		return nil, corrupt("does not start with %q", fileMagic)
	}
	if v := binary.LittleEndian.Uint32(hdr[8:]); v != fileVersion {
		return nil, corrupt("format version %d, this package reads version %d", v, fileVersion)
	}
	fdims := int64(binary.LittleEndian.Uint32(hdr[12:]))
	count := int64(binary.LittleEndian.Uint32(hdr[16:]))
	mlen := int64(binary.LittleEndian.Uint32(hdr[20:]))
	if mlen > maxModelLen {
		return nil, corrupt("model identity of %d bytes, over %d", mlen, maxModelLen)
	}
	if fdims == 0 || fdims > maxDims {
		return nil, corrupt("dimension %d is not between 1 and %d", fdims, maxDims)
	}
	if want := headerLen + mlen + count*(int64(len(Key{}))+4*fdims) + 4; size != want {
		return nil, corrupt("%d bytes, but its header (%d vectors of %d dimensions) says %d: truncated or damaged", size, count, fdims, want)
	}
	fmodel := make([]byte, mlen)
	if _, err := io.ReadFull(rd, fmodel); err != nil {
		return nil, corrupt("reading the model identity: %v", err)
	}
	if string(fmodel) != model || fdims != int64(dims) {
		return nil, fmt.Errorf("%w: it holds vectors of %q (%d dimensions), not %q (%d dimensions)", ErrStoreMismatch, fmodel, fdims, model, dims)
	}
	entries := make([]*stored, 0, count)
	seen := make(map[Key]bool, count)
	buf := make([]byte, 4*dims)
	for i := range count {
		e := &stored{vec: make([]float32, dims)}
		if _, err := io.ReadFull(rd, e.key[:]); err != nil {
			return nil, corrupt("reading vector %d: %v", i, err)
		}
		if _, err := io.ReadFull(rd, buf); err != nil {
			return nil, corrupt("reading vector %d: %v", i, err)
		}
		for j := range e.vec {
			e.vec[j] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*j:]))
		}
		if _, err := check(e.vec, dims); err != nil {
			return nil, corrupt("vector %d: %v", i, err)
		}
		if seen[e.key] {
			return nil, corrupt("vector %d repeats the key of an earlier one", i)
		}
		seen[e.key] = true
		entries = append(entries, e)
	}
	sum := crc.Sum32()
	var tail [4]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil {
		return nil, corrupt("reading the checksum: %v", err)
	}
	if got := binary.LittleEndian.Uint32(tail[:]); got != sum {
		return nil, corrupt("checksum %08x, want %08x", got, sum)
	}
	return entries, nil
}
