package tsopenai

// DefaultSleep is the wait between attempts when EmbedderOptions.Sleep is
// nil.
var DefaultSleep = sleep

// Settings returns what NewEmbedder resolved e's numeric options to:
// Dimensions, MaxBatchTexts, MaxBatchBytes and MaxAttempts.
func Settings(e *Embedder) [5]int {
	return [5]int{e.dims, e.maxTexts, e.maxBytes, e.maxAttempts, e.maxResp}
}
