// The official TypeScript SDK as a client of the gateway, for the gateway's
// end-to-end tests: node client.mjs stdio COMMAND ARGS... | node client.mjs http URL
// It lists the tools, calls ToolSearch for server-everything's echo, waits
// for notifications/tools/list_changed, lists again, calls echo, and prints
// one JSON object with what it saw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [kind, ...rest] = process.argv.slice(2);
const transport = kind === "http"
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: process.env, stderr: "ignore" });

const client = new Client({ name: "e2e-typescript-sdk", version: "0" });
let changed = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed++; });
await client.connect(transport);

const names = async () => (await client.listTools()).tools.map((t) => t.name).sort();
const out = { instructions: client.getInstructions() ?? "" };
out.before = await names();
out.search = await client.callTool({ name: "ToolSearch", arguments: { query: "select:mcp__everything__echo" } });
const deadline = Date.now() + 20000;
while (changed === 0 && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 20));
}
out.changed = changed > 0;
out.after = await names();
out.echo = await client.callTool({ name: "mcp__everything__echo", arguments: { message: "from typescript" } });
await client.close();
console.log(JSON.stringify(out));
