/**
 * The bytes the rendering benchmark replays, made once per run by the real code paths:
 *   - Lousho: a 300-message session built through createAgentHandler() (150 turns), the GET
 *     response that restores it, and the SSE response of the next turn, a 5,000-delta reply;
 *   - AI SDK: the same 300 messages as its UIMessages, and the same reply from streamText()
 *     (MockLanguageModelV3) + toUIMessageStreamResponse().
 */
import { createAgent, createAgentHandler, type LLMProvider, type StreamChunk } from '@lousho/build-ai-agent';
import { burstLanguageModel, deltaText, expectedText } from '../load/mock-models.js';

export interface RenderFixtures {
  transcriptMessages: number;
  deltas: number;
  expectedLength: number;
  lousho: { session: string; reply: string; replyHeaders: Record<string, string> };
  aiSdk: { messages: string; reply: string; replyHeaders: Record<string, string> };
}

const WORDS = 'the quick brown fox jumps over a lazy dog while the agent writes a short and friendly answer'.split(' ');

/** Turn `turn` of the transcript answers with ~40 words in 10 deltas; turn `turns` with the long reply. */
function scriptedProvider(turns: number, deltas: number): LLMProvider {
  let call = 0;
  return {
    name: 'bench',
    defaultModel: 'bench-render',
    async *stream(): AsyncIterable<StreamChunk> {
      const turn = call++;
      if (turn < turns) {
        for (let d = 0; d < 10; d++) {
          yield { type: 'text-delta', text: `${Array.from({ length: 4 }, (_, w) => WORDS[(turn + d * 4 + w) % WORDS.length]).join(' ')} ` };
        }
      } else {
        for (let i = 0; i < deltas; i++) yield { type: 'text-delta', text: deltaText(i) };
      }
      yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 10 } };
    },
  };
}

const headersOf = (response: Response): Record<string, string> => Object.fromEntries(response.headers.entries());

export async function makeRenderFixtures(transcriptMessages = 300, deltas = 5000): Promise<RenderFixtures> {
  const turns = transcriptMessages / 2;
  const agent = createAgent({ provider: scriptedProvider(turns, deltas) });
  const handler = createAgentHandler(agent, { keepAliveMs: 0 });
  const post = (input: string): Promise<Response> =>
    handler(new Request('http://127.0.0.1/sessions/bench/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }) }));
  for (let turn = 0; turn < turns; turn++) await (await post(`Question ${turn + 1}: tell me something short.`)).text();
  const sessionResponse = await handler(new Request('http://127.0.0.1/sessions/bench'));
  const session = await sessionResponse.text();
  const replyResponse = await post('Write the long benchmark reply.');
  const reply = await replyResponse.text();

  const state = (JSON.parse(session) as { state: { messages: { id: string; role: string; parts: { type: string; text?: string }[] }[] } }).state;
  if (state.messages.length !== transcriptMessages) throw new Error(`the transcript has ${state.messages.length} messages, not ${transcriptMessages}`);
  const messages = state.messages.map((m) => ({ id: m.id, role: m.role, parts: m.parts.filter((p) => p.type === 'text').map((p) => ({ type: 'text', text: p.text })) }));

  const ai = await import('ai');
  const aiTest = await import('ai/test');
  const aiResponse = ai.streamText({ model: burstLanguageModel(aiTest, deltas) as any, prompt: 'Write the long benchmark reply.' }).toUIMessageStreamResponse();
  const aiReply = await aiResponse.text();

  return {
    transcriptMessages,
    deltas,
    expectedLength: expectedText(deltas).length,
    lousho: { session, reply, replyHeaders: headersOf(replyResponse) },
    aiSdk: { messages: JSON.stringify(messages), reply: aiReply, replyHeaders: headersOf(aiResponse) },
  };
}
