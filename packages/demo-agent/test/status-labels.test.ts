import { describe, expect, it } from 'vitest';
import { cutCardNote, interruptedHint, interruptedNote } from '../src/display/status-labels.js';

describe('what an interrupted reply says, per mode', () => {
  it('in the page there is no server: a reload cut the reply', () => {
    for (const text of [interruptedHint('page'), interruptedNote('page'), cutCardNote('page')]) {
      expect(text).not.toMatch(/server/i);
      expect(text).toMatch(/reloaded/);
    }
  });

  it('over HTTP the server stopped', () => {
    for (const text of [interruptedHint('http'), interruptedNote('http'), cutCardNote('http')]) expect(text).toMatch(/server stopped/);
  });

  it('the note and the cut card say what the user can do', () => {
    for (const mode of ['page', 'http'] as const) {
      expect(interruptedNote(mode)).toMatch(/Send a message/);
      expect(cutCardNote(mode)).toMatch(/^Not finished: .*Send a message to go on/);
    }
  });
});
