import { describe, expect, it } from 'vitest';
import { decideDemoReply, DEMO_NOTES_TOOL_NAMES } from '../src/index.js';
import { ALL_TOOLS, user } from './helpers.js';

// The notes tools exist only where the demo's MCP notes server runs (the demo server).
const WITH_NOTES = [...ALL_TOOLS, ...Object.values(DEMO_NOTES_TOOL_NAMES).map((name) => ({ name, description: name, parameters: { type: 'object' } }))];
const calls = (text: string, tools = WITH_NOTES) => decideDemoReply({ messages: [user(text)], tools }).calls;

describe('notes requests (the MCP notes server)', () => {
  it('"take a note" and friends save the rest of the message as one note, even when it mentions other tools', () => {
    expect(calls('Take a note: call the bike shop on Monday')).toEqual([{ name: 'notes__add_note', args: { text: 'call the bike shop on Monday' } }]);
    expect(calls('note down "send an email to sam about the weather"')).toEqual([{ name: 'notes__add_note', args: { text: 'send an email to sam about the weather' } }]);
    expect(calls('Remember that the demo is on Friday')).toEqual([{ name: 'notes__add_note', args: { text: 'the demo is on Friday' } }]);
  });

  it('list and search', () => {
    expect(calls('List my notes')).toEqual([{ name: 'notes__list_notes', args: {} }]);
    expect(calls('show me all my notes')).toEqual([{ name: 'notes__list_notes', args: {} }]);
    expect(calls('Search my notes for bike shop.')).toEqual([{ name: 'notes__search_notes', args: { query: 'bike shop' } }]);
    expect(calls('find notes about Friday')).toEqual([{ name: 'notes__search_notes', args: { query: 'Friday' } }]);
  });

  it('without the notes server the model says it lacks those tools instead of calling them', () => {
    const reply = decideDemoReply({ messages: [user('Take a note: buy milk')], tools: ALL_TOOLS });
    expect(reply.calls).toEqual([]);
    expect(reply.text).toContain('notes__add_note');
  });

  it('other requests are unchanged', () => {
    expect(calls("What's the weather in Paris?").map((c) => c.name)).toEqual(['get_weather']);
    expect(calls('Send an email to sam@example.com about notes').map((c) => c.name)).toEqual(['send_email']);
  });
});
