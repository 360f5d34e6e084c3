package tsopenai

import (
	"fmt"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3/option"
)

// boundBody makes the client read at most limit bytes of a response's
// body, and stop reading when the request's context is done: a server
// that sends an endless or huge body, or sends it slowly, costs at most
// limit bytes and the caller's deadline.
func boundBody(limit int64) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil && resp != nil && resp.Body != nil {
			resp.Body = &boundedBody{rc: resp.Body, req: req, left: limit, limit: limit}
		}
		return resp, err
	}
}

// boundedBody is a response body cut at limit bytes, like
// http.MaxBytesReader, that fails once its request's context is done.
type boundedBody struct {
	rc          io.ReadCloser
	req         *http.Request
	left, limit int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if err := b.req.Context().Err(); err != nil {
		return 0, err
	}
	if b.left < 0 {
		return 0, b.tooLarge()
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	if int64(n) <= b.left {
		b.left -= int64(n)
		return n, err
	}
	n, b.left = int(b.left), -1
	return n, b.tooLarge()
}

func (b *boundedBody) tooLarge() error {
	return fmt.Errorf("%w: the response is over %d bytes (EmbedderOptions.MaxResponseBytes)", ErrEmbeddingResponse, b.limit)
}

func (b *boundedBody) Close() error { return b.rc.Close() }
