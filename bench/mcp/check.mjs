// Drives a running sandbox's MCP server with the official TypeScript MCP
// client (a client this project did not write): it lists the tools and
// calls call_api_endpoint for GET /account, and exits 1 on any mismatch.
//
//   npm ci --prefix bench/mcp && node bench/mcp/check.mjs http://127.0.0.1:8080
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const base = process.argv[2] || 'http://127.0.0.1:8080';
const failures = [];
function expect(cond, what) {
  if (!cond) failures.push(what);
}

const client = new Client({ name: 'slash-sandbox-ci', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?apiKey=sk_sandbox_acme`)));

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
expect(JSON.stringify(names) === JSON.stringify(['call_api_endpoint', 'get_endpoint_schema', 'list_endpoints']),
  `tools are ${names.join(', ')}`);

const res = await client.callTool({ name: 'call_api_endpoint', arguments: { method: 'GET', path: '/account' } });
expect(!res.isError, `GET /account answered an error: ${JSON.stringify(res.content)}`);
const out = res.structuredContent ?? JSON.parse(res.content.find((c) => c.type === 'text').text);
expect(out.status === 200, `status ${out.status}`);
const ids = (out.body?.items ?? []).map((a) => a.id);
expect(ids.includes('sa_group_acmeoperating'), `accounts are ${ids.join(', ')}`);

await client.close();
if (failures.length) {
  console.error('MCP client check failed:\n  ' + failures.join('\n  '));
  process.exit(1);
}
console.log(`MCP client check: ${names.length} tools; GET /account through call_api_endpoint answered ${ids.length} accounts`);
