import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentHandler, MemoryFileStore, memoryStore } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { serve, type TestServer } from '../../core/test/http/helpers.js';
import { attachmentUrl, createAgentClient, type AgentClient, type AttachmentPart, type ClientAgent } from '../src/index.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

const servers: TestServer[] = [];
const clients: AgentClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) await server.close();
});

/** Both transports: what a user sees must not depend on where the agent runs. */
const transports = [
  { name: 'in-process', open: async (agent: ClientAgent) => ({ client: createAgentClient({ agent }, { throttleMs: 0 }), url: undefined }) },
  {
    name: 'http',
    open: async (agent: ClientAgent) => {
      const server = await serve(createAgentHandler(agent));
      servers.push(server);
      return { client: createAgentClient({ url: server.url }, { throttleMs: 0 }), url: server.url };
    },
  },
];

function agentWithFiles() {
  const provider = mockModel(['A tiny picture.']);
  const files = new MemoryFileStore();
  return { agent: createAgent({ provider, store: memoryStore(), files }), files, provider };
}

describe.each(transports)('client.upload ($name)', ({ open }) => {
  it('uploads a file, sends it with text, shows it in the transcript, and the model gets the bytes', async () => {
    const { agent, provider } = agentWithFiles();
    const { client, url } = await open(agent);
    clients.push(client);
    const part = await client.upload(new File([PNG], 'cat.png', { type: 'image/png' }));
    expect(part).toEqual({ type: 'attachment', fileId: expect.stringMatching(/^f_[0-9a-f]{32}$/), name: 'cat.png', mimeType: 'image/png', size: PNG.byteLength });
    expect(client.sessionId).toBeDefined();
    const result = await client.send([{ type: 'text', text: 'What is it?' }, part]);
    expect(result.ok).toBe(true);
    expect(client.getSnapshot().messages[0]!.parts).toEqual([{ type: 'text', text: 'What is it?' }, part]);
    expect(provider.calls[0]!.messages[0]!.content).toContainEqual({ type: 'image', image: Buffer.from(PNG).toString('base64'), mimeType: 'image/png' });
    const shown = attachmentUrl(part, { url, sessionId: client.sessionId });
    if (url) expect(shown).toBe(`${url}/sessions/${client.sessionId}/files/${part.fileId}`);
    else expect(shown).toMatch(/^blob:/);
    if (url) expect(new Uint8Array(await (await fetch(shown!)).arrayBuffer())).toEqual(PNG);
  });

  it('refuses a file whose bytes are not its type (LOUSHO_FILE_TYPE_REFUSED), keeping nothing', async () => {
    const { agent, files } = agentWithFiles();
    const { client } = await open(agent);
    clients.push(client);
    await expect(client.upload(new Blob(['not a png'], { type: 'image/png' }), 'fake.png')).rejects.toMatchObject({ code: 'LOUSHO_FILE_TYPE_REFUSED' });
    await expect(client.upload(new Blob(['<html>'], { type: 'text/html' }))).rejects.toMatchObject({ code: 'LOUSHO_FILE_TYPE_REFUSED' });
    expect(await files.deleteSession(client.sessionId!)).toBe(0);
  });

  it('answers LOUSHO_FILES_UNSUPPORTED when the agent keeps no files', async () => {
    const { client } = await open(createAgent({ provider: mockModel(['x']) }));
    clients.push(client);
    await expect(client.upload(new File([PNG], 'cat.png', { type: 'image/png' }))).rejects.toMatchObject({ code: 'LOUSHO_FILES_UNSUPPORTED' });
  });

  it('a reloaded client shows the same attachment part', async () => {
    const { agent } = agentWithFiles();
    const { client, url } = await open(agent);
    clients.push(client);
    const part: AttachmentPart = await client.upload(new File([PNG], 'cat.png', { type: 'image/png' }));
    await client.send([part]);
    const again = url ? createAgentClient({ url, sessionId: client.sessionId! }, { throttleMs: 0 }) : createAgentClient({ agent, sessionId: client.sessionId! }, { throttleMs: 0 });
    clients.push(again);
    await again.start();
    expect(again.getSnapshot().messages[0]!.parts).toEqual([part]);
  });
});
