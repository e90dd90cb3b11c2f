// Node's Blob, not a DOM test environment's (jsdom's has no stream() and fetch sends it as text).
import { Blob } from 'node:buffer';
import { MemoryFileStore } from '@lousho/core';
import type { ExpectLike, MountedBinding } from './driver.js';
import { eventually } from './eventually.js';
import type { ScriptedAgentOptions, ScriptItem, ScriptedModel } from './fixtures.js';

/** A real 96×64 PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAGAAAABACAIAAABqVuVZAAAAhUlEQVR42u3asQ0AIAgEQKazdf/OxjiGzEApXvL1J1z5IebYpaxzS3m9PwABAgQIECBAgAABAgQIECBAgJoB/XZwtR8QIECAAAECBAgQIECAAAECBKgbkMHMoggIECBAgAABAgQIECBAgAAB8h9kMLMoAgIECBAgQIAAAQIECBAgQIDaAiXFrQL+q/Eu7gAAAABJRU5ErkJggg==';
const png = (): globalThis.Blob => new Blob([Buffer.from(PNG_BASE64, 'base64')], { type: 'image/png' }) as globalThis.Blob;

/** What the attachment scenarios use of the suite's world. */
export interface AttachmentWorld {
  readonly model: ScriptedModel;
  setup(steps: ScriptItem[][], extra?: ScriptedAgentOptions): Promise<void>;
  mount(options?: object, sessionId?: string): Promise<MountedBinding>;
  unmount(binding: MountedBinding): Promise<void>;
}

type Scenario = (title: string, body: (w: AttachmentWorld) => Promise<void>) => void;

/**
 * Attachments through each binding, in both transports: an upload resolves with its part, the
 * message shows it (also mounted again, as after a reload), and the model gets the bytes; a
 * refused upload is a coded error that leaves the state as it was.
 */
export function attachmentScenarios(scenario: Scenario, expect: ExpectLike): void {
  scenario('upload → send with text → the part in the transcript (also after a remount) and the bytes in the model request', async (w) => {
    await w.setup([['A checkerboard.']], { files: new MemoryFileStore() });
    const b = await w.mount();
    const part = await b.upload(png(), 'board.png');
    expect(part).toMatchObject({ type: 'attachment', name: 'board.png', mimeType: 'image/png', size: 190 });
    expect(await b.send([{ type: 'text', text: 'What is this?' }, part])).toMatchObject({ ok: true, finishReason: 'stop' });
    const parts = b.state().messages[0]!.parts;
    expect(parts).toEqual([{ type: 'text', text: 'What is this?' }, part]);
    expect(w.model.calls[0]!.at(-1)!.content).toEqual([{ type: 'text', text: 'What is this?' }, { type: 'image', image: PNG_BASE64, mimeType: 'image/png' }]);
    const sessionId = b.state().sessionId!;
    await w.unmount(b);
    const again = await w.mount({}, sessionId);
    await eventually(() => expect(again.state().messages[0]?.parts).toEqual(parts));
  });

  scenario('a refused upload (bytes that are not the image it claims) is LOUSHO_FILE_TYPE_REFUSED and changes nothing', async (w) => {
    await w.setup([['unused']], { files: new MemoryFileStore() });
    const b = await w.mount();
    const before = b.state();
    await expect(b.upload(new Blob(['not an image'], { type: 'image/png' }) as globalThis.Blob, 'fake.png')).rejects.toMatchObject({ code: 'LOUSHO_FILE_TYPE_REFUSED' });
    expect(b.state().messages).toEqual(before.messages);
    expect(b.state().status).toBe(before.status);
    expect(w.model.calls).toHaveLength(0);
  });
}
