// Runs Claude Code's own ToolSearch keyword search over a catalog and a
// queries file, for scripts/clibench/run.sh to time against `toolsearch
// batch`. The search code is not copied here: it is read at run time from
// the cli.js of the @anthropic-ai/claude-code npm package given with --cli
// (run.sh fetches version 2.1.89 with `npm pack`), and run as it is: the
// function that splits a tool name into parts, the one that builds the
// word-boundary regexps, and the async search itself (required "+" terms,
// name-part, hint and description scoring, sorted by score, first
// max_results kept). The two things around it that the package does not
// hold as plain functions are rebuilt as Claude Code has them: the
// description lookup (memoized per tool name: the first query reads every
// description, later ones hit the cache, as in a running session) and the
// regexp escape (read from the package as well).
//
//	node scripts/clibench/claude_code.mjs --cli PATH/cli.js --catalog FILE --queries FILE [--out FILE]
//
// It writes a JSON array of {query, matches} (like `toolsearch batch`).
import { readFileSync, writeFileSync } from "node:fs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
for (const k of ["cli", "catalog", "queries"]) {
  if (!args[k]) {
    console.error(`claude_code.mjs: --${k} is required`);
    process.exit(2);
  }
}

const cli = readFileSync(args.cli, "utf8");

// The name parser opens the search code: function X(q){if(q.startsWith("mcp__")){...
const start = cli.search(/function [\w$]+\(q\)\{if\(q\.startsWith\("mcp__"\)\)\{let _=q\.replace\(\/\^mcp__\/,""\)/);
if (start < 0) throw new Error("Claude Code's name parser not found in " + args.cli);
// ...and the search ends with .filter((X)=>X.score>0).sort(...).slice(0,z).map((X)=>X.name)}
const endMark = ".slice(0,z).map((X)=>X.name)}";
const end = cli.indexOf(endMark, start);
if (end < 0) throw new Error("end of Claude Code's search not found");
const chunk = cli.slice(start, end + endMark.length);
const searchName = chunk.match(/async function ([\w$]+)\(q,K,_,z\)\{let Y=q\.toLowerCase\(\)\.trim\(\)/)?.[1];
if (!searchName) throw new Error("Claude Code's search function not found in the chunk");
// Its free names: the memoized description lookup and the regexp escape.
const lookupName = chunk.match(/\(await ([\w$]+)\(P\.name,_\)\)\.toLowerCase\(\)/)?.[1];
const escapeName = chunk.match(/\\\\b\$\{([\w$]+)\(_\)\}\\\\b/)?.[1];
if (!lookupName || !escapeName) throw new Error("description lookup or regexp escape not found");
const escapeSrc = cli.match(new RegExp(`function ${escapeName.replace(/\$/g, "\\$")}\\(q\\)\\{return q\\.replace\\([^\\n]*?"\\\\\\\\\\$&"\\)\\}`))?.[0];
if (!escapeSrc) throw new Error("regexp escape " + escapeName + " not found");

// Claude Code: lodash memoize keyed by the tool name, over
// async (name, tools) => (tools.find(t => t.name === name || t.aliases?.includes(name)))?.prompt() ?? "".
const memo = new Map();
function lookup(name, tools) {
  let p = memo.get(name);
  if (!p) {
    p = (async () => {
      const t = tools.find((t) => t.name === name || (t.aliases?.includes(name) ?? false));
      if (!t) return "";
      return t.prompt();
    })();
    memo.set(name, p);
  }
  return p;
}
const search = new Function(lookupName, `${escapeSrc}\n${chunk}\nreturn ${searchName};`)(lookup);

// The catalog as Claude Code holds it: MCP tools are deferred unless always
// loaded; others when should_defer.
// Claude Code searches its tool pool in pool order (tools not from MCP
// servers, then MCP tools, each by name): ties keep that order.
const catalog = JSON.parse(readFileSync(args.catalog, "utf8")).tools;
const byName = (a, b) => (Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
const isMcp = (t) => Boolean(t.server) || t.name.startsWith("mcp__");
const pool = [...catalog.filter((t) => !isMcp(t)).sort(byName), ...catalog.filter(isMcp).sort(byName)];
const tools = pool.map((t) => ({
  name: t.name,
  isMcp: isMcp(t),
  shouldDefer: t.should_defer !== false,
  alwaysLoad: t.always_load === true,
  searchHint: t.search_hint || undefined,
  prompt: async () => t.description ?? "",
}));
const deferred = tools.filter((q) => {
  if (q.alwaysLoad === true) return false;
  if (q.isMcp === true) return true;
  if (q.name === "ToolSearch") return false;
  return q.shouldDefer === true;
});

const queries = JSON.parse(readFileSync(args.queries, "utf8"));
const out = [];
for (const item of queries) {
  const query = typeof item === "string" ? item : item.query;
  const max = typeof item === "string" ? 5 : (item.max_results ?? 5);
  out.push({ query, matches: await search(query, deferred, tools, max) });
}
const text = JSON.stringify(out) + "\n";
if (args.out) writeFileSync(args.out, text);
else process.stdout.write(text);
