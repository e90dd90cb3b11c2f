/* global process */
// An MCP server with 100 tools whose schemas are hostile in every way the converter must survive;
// one of them (`not_an_object`) cannot be used at all. Every call echoes its arguments back.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const deep = (levels) => (levels === 0 ? { type: 'string' } : { type: 'object', properties: { next: deep(levels - 1) } });
const wide = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { type: 'integer', minimum: i }]));
const chain = {};
for (let i = 0; i < 30; i++) chain[`d${i}`] = { type: 'object', properties: { left: { $ref: `#/$defs/d${i + 1}` }, right: { $ref: `#/$defs/d${i + 1}` } } };
chain.d30 = { type: 'string' };

export const HOSTILE_SCHEMAS = [
  ['not_an_object', { type: 'string' }],
  ['empty', {}],
  ['no_properties', { type: 'object' }],
  ['type_array', { type: 'object', properties: { v: { type: ['string', 'null', 'integer'] } }, required: ['v'] }],
  ['mixed_enum', { type: 'object', properties: { v: { enum: ['a', 1, null, true, { x: 1 }, [2]] } }, required: ['v'] }],
  ['const_object', { type: 'object', properties: { v: { const: { deep: [1, { two: 2 }] } } } }],
  ['nullable_anyof', { type: 'object', properties: { v: { anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] } }, required: ['v'] }],
  ['oneof_overlap', { type: 'object', properties: { v: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 5 }] } } }],
  ['allof_merge', { type: 'object', allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number', default: 4 } } }] }],
  ['recursive_ref', { type: 'object', properties: { tree: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['value'] } } }],
  ['root_ref', { type: 'object', properties: { self: { $ref: '#' } } }],
  ['missing_ref', { type: 'object', properties: { v: { $ref: '#/$defs/nowhere' } } }],
  ['remote_ref', { type: 'object', properties: { v: { $ref: 'https://example.com/schema.json' } } }],
  ['definitions_ref', { type: 'object', properties: { v: { $ref: '#/definitions/id' } }, definitions: { id: { type: 'string', pattern: '^id-' } } }],
  ['bad_pattern', { type: 'object', properties: { v: { type: 'string', pattern: '([a-z' } } }],
  ['unicode_length', { type: 'object', properties: { v: { type: 'string', minLength: 2, maxLength: 2 } } }],
  ['tuple_items', { type: 'object', properties: { v: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } }],
  ['strict_object', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }],
  ['typed_extras', { type: 'object', additionalProperties: { type: 'number' } }],
  ['proto_keys', { type: 'object', properties: { ['__proto__']: { type: 'string' }, constructor: { type: 'string' }, toString: { type: 'number' } } }],
  ['wrong_keyword_types', { type: 'object', properties: 'nope', required: 'v', enum: 'x', anyOf: {}, allOf: [null, 3], minLength: -1, items: 7 }],
  ['unknown_keywords', { type: 'object', 'x-vendor': { whatever: true }, if: { type: 'object' }, then: false, properties: { v: { format: 'email', contentMediaType: 'text/html' } } }],
  ['boolean_schemas', { type: 'object', properties: { yes: true, no: false } }],
  ['deep_nesting', deep(200)],
  ['wide_object', { type: 'object', properties: wide }],
  ['exponential_refs', { type: 'object', properties: { root: { $ref: '#/$defs/d0' } }, $defs: chain }],
  ['draft4_exclusive', { type: 'object', properties: { v: { type: 'number', minimum: 0, exclusiveMinimum: true } } }],
  ['huge_enum', { type: 'object', properties: { v: { enum: Array.from({ length: 5000 }, (_, i) => `value-${i}`) } } }],
  ['weird name/with.dots and spaces', { type: 'object' }],
  ['a'.repeat(80), { type: 'object' }],
];

export function hostileTools() {
  const tools = HOSTILE_SCHEMAS.map(([name, inputSchema]) => ({ name, description: `Hostile schema: ${name.slice(0, 40)}`, inputSchema }));
  for (let i = tools.length; i < 100; i++) {
    tools.push({ name: `plain_${i}`, description: `Plain tool ${i}`, inputSchema: { type: 'object', properties: { n: { type: 'integer', maximum: i } }, required: ['n'] } });
  }
  return tools;
}

const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: hostileTools() }));
// The SDK's Server checks tools/call results against today's content types; a server in another
// language (or on a newer protocol) may send a part type this client does not know. Registered
// through the base Protocol so `plain_99` can answer with one.
Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: 'echo' }, ...(request.params.name === 'plain_99' ? [{ type: 'hologram', depth: 3 }] : [])],
  structuredContent: { name: request.params.name, arguments: request.params.arguments ?? {} },
}));
// Exit when the client closes stdin, as stdio servers should.
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
