package tsopenai

// DefaultSleep is the wait between attempts when EmbedderOptions.Sleep is
// nil.
var DefaultSleep = sleep
