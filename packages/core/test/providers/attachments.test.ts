import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, MemoryFileStore, type AttachmentPart, type LLMProvider } from '../../src/index.js';
import { AnthropicProvider, OpenAIProvider } from '@lousho/providers';
import { startFakeApi, type FakeApiServer } from '../../../providers/test/fake-api-server.js';
import { anthropicTextStream, openaiTextStream } from '../../../providers/test/wire-fixtures.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%fake\n');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** A session with an image and a PDF stored, and the parts that reference them. */
async function attached(files: MemoryFileStore): Promise<AttachmentPart[]> {
  const image = await files.put({ sessionId: 's1', name: 'cat.png', mimeType: 'image/png', body: once(PNG), maxBytes: 1000 });
  const pdf = await files.put({ sessionId: 's1', name: 'report.pdf', mimeType: 'application/pdf', body: once(PDF), maxBytes: 1000 });
  return [image, pdf].map((file) => ({ type: 'attachment', fileId: file.id, name: file.name, mimeType: file.mimeType, size: file.size }));
}

async function run(make: (url: string) => LLMProvider, sse: string[]) {
  server = await startFakeApi([{ sse }]);
  const files = new MemoryFileStore();
  const agent = createAgent({ provider: make(server.url), files });
  const parts = await attached(files);
  const result = await agent.send([{ type: 'text', text: 'Describe these.' }, ...parts], { sessionId: 's1' });
  return { body: server.requests[0]!.body, result, agent };
}

describe('attachments reach the model in its own format, read from the file store', () => {
  it('OpenAI chat completions: the image as an image_url data URL, the PDF as a file with its name', async () => {
    const { body, result } = await run((url) => new OpenAIProvider({ apiKey: 'sk-test-00000000000000000000', baseURL: `${url}/v1`, env: {} }), openaiTextStream(['A cat.']));
    expect(result.text).toBe('A cat.');
    expect(body.messages.at(-1).content).toEqual([
      { type: 'text', text: 'Describe these.' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${b64(PNG)}` } },
      { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${b64(PDF)}` } },
    ]);
  });

  it('Anthropic messages: an image block and a document block, both base64', async () => {
    const { body, agent } = await run((url) => new AnthropicProvider({ apiKey: 'sk-ant-test-000000000000', baseURL: url, env: {} }), anthropicTextStream(['A cat.']));
    expect(body.messages.at(-1).content).toEqual([
      { type: 'text', text: 'Describe these.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64(PNG) } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: b64(PDF) }, title: 'report.pdf' },
    ]);
    // The transcript keeps the references, never the bytes.
    const kept = JSON.stringify(await agent.sessions.load('s1'));
    expect(kept).toContain('"type":"attachment"');
    expect(kept).not.toContain(b64(PNG));
  });
});
