import { compactMessages, SUMMARY_HEADING, textOf, twoPhaseStrategy, type Message } from '@lousho/build-ai-agent';
import { describe, expect, it } from 'vitest';
import { createDemoModel, DEMO_SUMMARY_MODEL_ID, summarizeConversation } from '../src/index.js';
import { turn, user } from './helpers.js';

/** One exchange as the agent keeps it: the question, a tool call and its result, the answer. */
function exchange(n: number): Message[] {
  return [
    user(`Weather in city ${n}?`),
    { role: 'assistant', content: 'Let me check.', toolCalls: [{ id: `c${n}`, name: 'get_weather', arguments: JSON.stringify({ city: `city ${n}` }) }] },
    { role: 'tool', toolCallId: `c${n}`, toolName: 'get_weather', content: JSON.stringify({ city: `city ${n}`, temperatureC: n, filler: 'x'.repeat(400) }) },
    { role: 'assistant', content: `It's ${n} °C in city ${n}.` },
  ];
}

describe('the demo model as a summarizer', () => {
  it('answers a request for DEMO_SUMMARY_MODEL_ID with a summary of the newest exchanges, and counts the rest', () => {
    const conversation = [
      'Condense this conversation:',
      '',
      'User: Weather in Berlin?',
      'Assistant: Let me check.',
      'Assistant called get_weather({"city":"Berlin"})',
      'Tool result (get_weather): [pruned: get_weather result, 96 chars]',
      "Assistant: It's 12 °C and sunny in Berlin.",
      'User: Research tea',
      'in depth, please',
      'Assistant: On tea:',
      'it comes from China.',
      'User: Hello',
      "Assistant: I'm the offline demo model.",
    ].join('\n');
    expect(summarizeConversation(conversation)).toBe(
      [
        'The user made 3 requests before this point:',
        `- Asked "Weather in Berlin?" (tools: get_weather) → "It's 12 °C and sunny in Berlin."`,
        '- Asked "Research tea in depth, please" → "On tea: it comes from China."',
        `- Asked "Hello" → "I'm the offline demo model."`,
      ].join('\n'),
    );
  });

  it('folds an earlier summary in: its count carries over, and only the newest four exchanges are described', () => {
    const first = summarizeConversation(Array.from({ length: 6 }, (_, i) => `User: question ${i + 1}\nAssistant: answer ${i + 1}`).join('\n'));
    expect(first.split('\n')).toEqual([
      'The user made 6 requests before this point; the newest 4:',
      '- Asked "question 3" → "answer 3"',
      '- Asked "question 4" → "answer 4"',
      '- Asked "question 5" → "answer 5"',
      '- Asked "question 6" → "answer 6"',
    ]);
    const second = summarizeConversation([`User: ${SUMMARY_HEADING}`, first, 'User: question 7', 'Assistant: answer 7'].join('\n'));
    expect(second.split('\n')).toEqual([
      'The user made 7 requests before this point; the newest 4:',
      '- Asked "question 4" → "answer 4"',
      '- Asked "question 5" → "answer 5"',
      '- Asked "question 6" → "answer 6"',
      '- Asked "question 7" → "answer 7"',
    ]);
  });

  it('stays short however long the messages are', () => {
    const long = 'word '.repeat(2000);
    const summary = summarizeConversation(Array.from({ length: 50 }, () => `User: ${long}\nAssistant: ${long}`).join('\n'));
    expect(summary.length).toBeLessThan(1000);
    expect(summary).toContain('The user made 50 requests');
  });

  it('skips what the assistant said before the first request it covers', () => {
    expect(summarizeConversation('Assistant: a reply\nover two lines\nUser: next\nAssistant: done')).toBe('The user made 1 request before this point:\n- Asked "next" → "done"');
  });

  it('says so when there is nothing to summarize', () => {
    expect(summarizeConversation('Condense this conversation:\n\n')).toBe('Nothing to summarize: the earlier conversation had no requests.');
  });

  it('is what compaction gets from the demo model: a summary message in place of the old turns', async () => {
    const history = Array.from({ length: 40 }, (_, i) => exchange(i + 1)).flat();
    const shorter = await compactMessages(history, {
      model: DEMO_SUMMARY_MODEL_ID,
      provider: createDemoModel({ charDelayMs: 0 }),
      contextWindow: 1200,
      protectedTokens: 150,
      strategy: twoPhaseStrategy({ model: DEMO_SUMMARY_MODEL_ID }),
    });
    expect(textOf(shorter[0]!)).toMatch(/^\[Summary of the earlier conversation\]\nThe user made \d+ requests before this point; the newest 4:\n- Asked "Weather in city \d+\?" \(tools: get_weather\) → "It's \d+ °C in city \d+\."/);
    // The newest exchange is still there as it was (its question went into the summary: a cut never splits a call from its result, but may come before it).
    expect(shorter.slice(-3)).toEqual(exchange(40).slice(1));
  });

  it('plays no part in a normal chat turn', async () => {
    const reply = await turn([user('Weather in Paris?')]);
    expect(reply.toolCalls.map((c) => c.name)).toEqual(['get_weather']);
  });
});
