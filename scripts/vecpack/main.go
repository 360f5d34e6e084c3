// Command vecpack writes the vector packs the tests replay (package
// internal/vecpack) from vectors files written by toolsearch embed:
//
//	go run ./scripts/vecpack -model use-lite -out testdata/quality/use-lite.vecpack A.jsonl B.jsonl
//
// Every text of the files is kept once, under its key for -model.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/toolsearch/toolsearch/internal/vecfile"
	"github.com/toolsearch/toolsearch/internal/vecpack"
)

func main() {
	model := flag.String("model", "", "the model name the keys are made with (required)")
	out := flag.String("out", "", "the pack to write (required)")
	flag.Parse()
	if *model == "" || *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: vecpack -model NAME -out FILE VECTORS.jsonl...")
		os.Exit(2)
	}
	var texts []string
	var vecs [][]float32
	seen := map[string]bool{}
	for _, path := range flag.Args() {
		f, err := os.Open(path)
		if err != nil {
			fail(err)
		}
		vf, err := vecfile.Read(f)
		f.Close()
		if err != nil {
			fail(fmt.Errorf("%s: %w", path, err))
		}
		for t, v := range vf.All() {
			if !seen[t] {
				seen[t] = true
				texts, vecs = append(texts, t), append(vecs, v)
			}
		}
	}
	var buf bytes.Buffer
	if err := vecpack.Write(&buf, *model, texts, vecs); err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("wrote %d vectors (%d bytes) to %s\n", len(texts), buf.Len(), *out)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "vecpack:", err)
	os.Exit(1)
}
