import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, MemoryFileStore, memoryStore, type AttachmentPart, type FileStore } from '../../src/index.js';
import { createAgentHandler, type AgentHandlerOptions, type HandlerAgent } from '../../src/http/index.js';
import { mockModel } from '@lousho/testing';
import { errorOf, json, readSse, serve, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

async function start(agent: HandlerAgent, options: AgentHandlerOptions = {}): Promise<string> {
  server = await serve(createAgentHandler(agent, { authorize: (request) => request.headers.get('x-user'), ...options }));
  return server.url;
}

function setup(files: FileStore = new MemoryFileStore()) {
  const provider = mockModel(['Nice picture.', 'Still nice.']);
  const agent = createAgent({ provider, store: memoryStore(), files });
  return { agent, files, provider };
}

const upload = (url: string, user: string, sessionId: string, body: BodyInit, type: string | null, name = 'cat.png', headers: Record<string, string> = {}) =>
  fetch(`${url}/sessions/${sessionId}/files?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    body,
    headers: { 'x-user': user, ...(type !== null ? { 'content-type': type } : {}), ...headers },
  });

/** Every file the store has for these sessions (deleting them counts them). */
async function countFiles(files: FileStore, ...sessions: string[]): Promise<number> {
  let n = 0;
  for (const id of sessions) n += await files.deleteSession(id);
  return n;
}

describe('createAgentHandler: POST /sessions/:id/files and GET /sessions/:id/files/:fileId', () => {
  it('stores an upload (creating the session), answers its attachment part, and serves it back with its type and nosniff', async () => {
    const { agent } = setup();
    const url = await start(agent);
    const response = await upload(url, 'alice', 's1', PNG, 'image/png');
    expect(response.status).toBe(201);
    const { attachment } = (await response.json()) as { attachment: AttachmentPart };
    expect(attachment).toEqual({ type: 'attachment', fileId: expect.stringMatching(/^f_[0-9a-f]{32}$/), name: 'cat.png', mimeType: 'image/png', size: PNG.byteLength });
    expect((await agent.sessions.load('s1'))?.owner).toBe('alice');
    const got = await fetch(`${url}/sessions/s1/files/${attachment.fileId}`, { headers: { 'x-user': 'alice' } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(got.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''cat.png");
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
  });

  it('keeps a reference in the event log and transcript, and the model gets the bytes', async () => {
    const { agent, provider } = setup();
    const url = await start(agent);
    const { attachment } = (await (await upload(url, 'alice', 's1', PNG, 'image/png')).json()) as { attachment: AttachmentPart };
    // The client's name/type/size are not trusted: the store's are kept.
    const read = await readSse(await fetch(`${url}/sessions/s1/messages`, { ...json({ input: [{ type: 'text', text: 'What is this?' }, { type: 'attachment', fileId: attachment.fileId, name: 'x.exe', mimeType: 'text/html', size: 1 }] }), headers: { 'content-type': 'application/json', 'x-user': 'alice' } }));
    expect(read.events.at(-1)?.type).toBe('run.done');
    const logged = JSON.stringify(agent.sessions.eventsAfter('s1', 0));
    expect(logged).toContain(attachment.fileId);
    expect(logged).not.toContain('iVBORw0KGgo');
    const session = (await (await fetch(`${url}/sessions/s1`, { headers: { 'x-user': 'alice' } })).json()) as { messages: { content: unknown }[]; state: { messages: { parts: unknown[] }[] } };
    expect(session.messages[0]!.content).toEqual([{ type: 'text', text: 'What is this?' }, attachment]);
    expect(session.state.messages[0]!.parts).toContainEqual(attachment);
    const sent = provider.calls[0]!.messages[0]!.content;
    expect(sent).toEqual([{ type: 'text', text: 'What is this?' }, { type: 'image', image: Buffer.from(PNG).toString('base64'), mimeType: 'image/png' }]);
  });

  it('refuses a file over maxFileBytes with 413 LOUSHO_FILE_TOO_LARGE, declared or streamed, and stores nothing', async () => {
    const { agent, files } = setup();
    const url = await start(agent, { maxFileBytes: 10 });
    expect(await errorOf(await upload(url, 'alice', 's1', PNG, 'image/png'))).toMatchObject({ status: 413, code: 'LOUSHO_FILE_TOO_LARGE' });
    // Chunked: no content-length, cut off while streaming.
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(PNG.slice(0, 8)), c.enqueue(PNG.slice(8)), c.close()) });
    const chunked = await fetch(`${url}/sessions/s1/files`, { method: 'POST', body: stream, duplex: 'half', headers: { 'x-user': 'alice', 'content-type': 'image/png' } } as RequestInit);
    expect(await errorOf(chunked)).toMatchObject({ status: 413, code: 'LOUSHO_FILE_TOO_LARGE' });
    expect(await countFiles(files, 's1')).toBe(0);
    expect(await agent.sessions.load('s1')).toBeUndefined();
  });

  it('refuses a type not allowed, a missing type, and bytes that are not what the type says, with 415 LOUSHO_FILE_TYPE_REFUSED', async () => {
    const { agent, files } = setup();
    const url = await start(agent);
    const html = new TextEncoder().encode('<script>alert(1)</script>');
    expect(await errorOf(await upload(url, 'alice', 's1', html, 'text/html'))).toMatchObject({ status: 415, code: 'LOUSHO_FILE_TYPE_REFUSED' });
    expect(await errorOf(await upload(url, 'alice', 's1', html, null))).toMatchObject({ status: 415, code: 'LOUSHO_FILE_TYPE_REFUSED' });
    expect(await errorOf(await upload(url, 'alice', 's1', html, 'image/png'))).toMatchObject({ status: 415, code: 'LOUSHO_FILE_TYPE_REFUSED' });
    expect(await errorOf(await upload(url, 'alice', 's1', PNG, 'image/jpeg'))).toMatchObject({ status: 415, code: 'LOUSHO_FILE_TYPE_REFUSED' });
    expect(await errorOf(await upload(url, 'alice', 's1', PNG, 'text/plain'))).toMatchObject({ status: 415, code: 'LOUSHO_FILE_TYPE_REFUSED' });
    expect(await countFiles(files, 's1')).toBe(0);
    // fileTypes widens and narrows the list.
    const other = setup();
    await server!.close();
    const url2 = await start(other.agent, { fileTypes: ['text/*'] });
    expect((await upload(url2, 'alice', 's1', html, 'text/html; charset=utf-8', 'page.html')).status).toBe(201);
    expect(await errorOf(await upload(url2, 'alice', 's1', PNG, 'image/png'))).toMatchObject({ status: 415, code: 'LOUSHO_FILE_TYPE_REFUSED' });
  });

  it('serves a non-image file as a download, so it never renders as a page of this origin', async () => {
    const { agent } = setup();
    const url = await start(agent, { fileTypes: ['text/*'] });
    const { attachment } = (await (await upload(url, 'alice', 's1', '<b>hi</b>', 'text/html', 'page.html')).json()) as { attachment: AttachmentPart };
    const got = await fetch(`${url}/sessions/s1/files/${attachment.fileId}`, { headers: { 'x-user': 'alice' } });
    expect(got.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''page.html");
    expect(await got.text()).toBe('<b>hi</b>');
  });

  it("keeps another principal's session and files unknown (404), for upload, download and sending", async () => {
    const { agent, files } = setup();
    const url = await start(agent);
    const { attachment } = (await (await upload(url, 'alice', 's1', PNG, 'image/png')).json()) as { attachment: AttachmentPart };
    expect(await errorOf(await upload(url, 'bob', 's1', PNG, 'image/png'))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/files/${attachment.fileId}`, { headers: { 'x-user': 'bob' } }))).toMatchObject({ status: 404, code: 'LOUSHO_SESSION_NOT_FOUND' });
    // Bob's own session cannot name Alice's file.
    await upload(url, 'bob', 'b1', PNG, 'image/png');
    expect(await errorOf(await fetch(`${url}/sessions/b1/files/${attachment.fileId}`, { headers: { 'x-user': 'bob' } }))).toMatchObject({ status: 404, code: 'LOUSHO_FILE_NOT_FOUND' });
    const send = await fetch(`${url}/sessions/b1/messages`, { ...json({ input: [{ type: 'attachment', fileId: attachment.fileId }] }), headers: { 'content-type': 'application/json', 'x-user': 'bob' } });
    expect(await errorOf(send)).toMatchObject({ status: 404, code: 'LOUSHO_FILE_NOT_FOUND' });
    expect(agent.sessions.eventsAfter('b1', 0)).toEqual([]);
    expect(await files.info(attachment.fileId)).toMatchObject({ sessionId: 's1' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/files/f_00000000000000000000000000000000`, { headers: { 'x-user': 'alice' } }))).toMatchObject({ status: 404, code: 'LOUSHO_FILE_NOT_FOUND' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/files/..%2F..%2Fetc`, { headers: { 'x-user': 'alice' } }))).toMatchObject({ status: 404, code: 'LOUSHO_FILE_NOT_FOUND' });
    expect(await errorOf(await upload(url, 'alice', 'bad id!', PNG, 'image/png'))).toMatchObject({ status: 400, code: 'LOUSHO_INVALID_INPUT' });
  });

  it('deleting the session deletes its files', async () => {
    const { agent, files } = setup();
    const url = await start(agent);
    const { attachment } = (await (await upload(url, 'alice', 's1', PNG, 'image/png')).json()) as { attachment: AttachmentPart };
    expect((await fetch(`${url}/sessions/s1`, { method: 'DELETE', headers: { 'x-user': 'alice' } })).status).toBe(200);
    expect(await files.info(attachment.fileId)).toBeUndefined();
  });

  it('answers 501 LOUSHO_FILES_UNSUPPORTED when the agent keeps no files, and 405 for other methods', async () => {
    const url = await start(createAgent({ provider: mockModel(['x']) }));
    expect(await errorOf(await upload(url, 'alice', 's1', PNG, 'image/png'))).toMatchObject({ status: 501, code: 'LOUSHO_FILES_UNSUPPORTED' });
    const send = await fetch(`${url}/sessions/s1/messages`, { ...json({ input: [{ type: 'attachment', fileId: 'f_00000000000000000000000000000000' }] }), headers: { 'content-type': 'application/json', 'x-user': 'alice' } });
    expect(await errorOf(send)).toMatchObject({ status: 501, code: 'LOUSHO_FILES_UNSUPPORTED' });
    expect(await errorOf(await fetch(`${url}/sessions/s1/files`, { headers: { 'x-user': 'alice' } }))).toMatchObject({ status: 405, code: 'LOUSHO_METHOD_NOT_ALLOWED' });
  });

  it('refuses bad handler options with LOUSHO_INVALID_CONFIG', () => {
    const agent = createAgent({ provider: mockModel(['x']) });
    expect(() => createAgentHandler(agent, { maxFileBytes: 0 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => createAgentHandler(agent, { fileTypes: [] })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => createAgentHandler(agent, { fileTypes: ['PNG'] })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });

  it('a run whose attachment was deleted meanwhile ends with LOUSHO_FILE_NOT_FOUND, and the server goes on', async () => {
    const { agent, files } = setup();
    const url = await start(agent);
    const { attachment } = (await (await upload(url, 'alice', 's1', PNG, 'image/png')).json()) as { attachment: AttachmentPart };
    await fetch(`${url}/sessions/s1/messages`, { ...json({ input: [{ type: 'attachment', fileId: attachment.fileId }] }), headers: { 'content-type': 'application/json', 'x-user': 'alice' } }).then(readSse);
    await files.delete(attachment.fileId);
    const read = await readSse(await fetch(`${url}/sessions/s1/messages`, { ...json({ input: 'And now?' }), headers: { 'content-type': 'application/json', 'x-user': 'alice' } }));
    expect(read.events.find((event) => event.type === 'error')).toMatchObject({ error: { code: 'LOUSHO_FILE_NOT_FOUND' } });
    expect((await fetch(`${url}/sessions/s1`, { headers: { 'x-user': 'alice' } })).status).toBe(200);
  });
});
