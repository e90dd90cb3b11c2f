/**
 * Provider answers in their exact wire formats, written from the published API references:
 * OpenAI Chat Completions streaming (`chat.completion.chunk` events, `data: [DONE]`, the usage chunk
 * of `stream_options.include_usage`), the Anthropic Messages streaming events, and each API's error
 * bodies. OpenRouter and Ollama speak the OpenAI format with their own small differences.
 */

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------------------------

const OPENAI_ID = 'chatcmpl-9kQz3yQ1eXampLe';

/** One `chat.completion.chunk` event. With include_usage every chunk carries `"usage": null`. */
export function openaiChunk(delta: Record<string, unknown>, finishReason: string | null = null, model = 'gpt-4o-mini-2024-07-18'): string {
  return `data: ${JSON.stringify({
    id: OPENAI_ID,
    object: 'chat.completion.chunk',
    created: 1720000000,
    model,
    system_fingerprint: 'fp_0ba0d124f1',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  })}\n\n`;
}

/** The extra chunk `stream_options.include_usage` adds: empty `choices` and the turn's usage. */
export function openaiUsageChunk(usage: Record<string, unknown>, model = 'gpt-4o-mini-2024-07-18'): string {
  return `data: ${JSON.stringify({
    id: OPENAI_ID,
    object: 'chat.completion.chunk',
    created: 1720000000,
    model,
    system_fingerprint: 'fp_0ba0d124f1',
    choices: [],
    usage,
  })}\n\n`;
}

export const OPENAI_DONE = 'data: [DONE]\n\n';

export const openaiUsage = (prompt: number, completion: number, cached = 0, reasoning = 0) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
});

/** A plain text answer streamed in pieces, with a usage chunk. */
export function openaiTextStream(pieces: string[], usage: Record<string, unknown> | null = openaiUsage(12, 5)): string[] {
  return [
    openaiChunk({ role: 'assistant', content: '', refusal: null }),
    ...pieces.map((content) => openaiChunk({ content })),
    openaiChunk({}, 'stop'),
    ...(usage ? [openaiUsageChunk(usage)] : []),
    OPENAI_DONE,
  ];
}

/**
 * Two parallel tool calls, as OpenAI streams them: each call's first delta has its id, type and
 * name with empty arguments; the argument JSON then arrives in small pieces keyed by `index`.
 */
export function openaiParallelToolCallStream(): string[] {
  const args = (index: number, piece: string) => openaiChunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  return [
    openaiChunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_weather_paris', type: 'function', function: { name: 'get_weather', arguments: '' } }], refusal: null }),
    args(0, '{"ci'),
    args(0, 'ty": "Par'),
    args(0, 'is"}'),
    openaiChunk({ tool_calls: [{ index: 1, id: 'call_weather_tokyo', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
    args(1, '{"city"'),
    args(1, ': "Tokyo"}'),
    openaiChunk({}, 'tool_calls'),
    openaiUsageChunk(openaiUsage(82, 41, 64, 0)),
    OPENAI_DONE,
  ];
}

/** One tool call whose arguments come in pieces, then finish_reason tool_calls. */
export function openaiToolCallStream(id: string, name: string, argumentPieces: string[]): string[] {
  return [
    openaiChunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] }),
    ...argumentPieces.map((arguments_) => openaiChunk({ tool_calls: [{ index: 0, function: { arguments: arguments_ } }] })),
    openaiChunk({}, 'tool_calls'),
    openaiUsageChunk(openaiUsage(60, 20)),
    OPENAI_DONE,
  ];
}

export const openaiErrors = {
  unauthorized: (key: string) => ({
    status: 401,
    json: {
      error: {
        // A proxy that echoes the whole key (OpenAI itself masks it): the provider must still hide it.
        message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
  }),
  notFound: {
    status: 404,
    json: {
      error: {
        message: 'The model `gpt-nope` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    },
  },
  rateLimited: {
    status: 429,
    headers: { 'retry-after': '2', 'x-ratelimit-remaining-requests': '0' },
    json: {
      error: {
        message: 'Rate limit reached for gpt-4o-mini in organization org-abc on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
  },
  serverError: {
    status: 500,
    json: {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Anthropic Messages
// ---------------------------------------------------------------------------------------------

/** One Messages API event: `event: <type>` plus its JSON `data`. */
export function anthropicEvent(data: { type: string } & Record<string, unknown>): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function anthropicMessageStart(usage: Record<string, unknown> = { input_tokens: 25, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 }): string {
  return anthropicEvent({
    type: 'message_start',
    message: {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-haiku-4-5-20251001',
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
}

export const ANTHROPIC_PING = anthropicEvent({ type: 'ping' });
export const ANTHROPIC_STOP = anthropicEvent({ type: 'message_stop' });

export function anthropicTextBlock(index: number, pieces: string[]): string[] {
  return [
    anthropicEvent({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
    ...pieces.map((text) => anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })),
    anthropicEvent({ type: 'content_block_stop', index }),
  ];
}

/** A tool_use block; its input streams as `input_json_delta` pieces (the first one is empty, as the API sends it). */
export function anthropicToolBlock(index: number, id: string, name: string, pieces: string[]): string[] {
  return [
    anthropicEvent({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }),
    anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }),
    ...pieces.map((partial_json) => anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })),
    anthropicEvent({ type: 'content_block_stop', index }),
  ];
}

export function anthropicMessageDelta(stopReason: string, outputTokens: number): string {
  return anthropicEvent({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
}

export function anthropicTextStream(pieces: string[]): string[] {
  return [anthropicMessageStart(), ...anthropicTextBlock(0, pieces), anthropicMessageDelta('end_turn', 12), ANTHROPIC_STOP];
}

export function anthropicToolStream(id: string, name: string, pieces: string[], preamble?: string): string[] {
  const text = preamble ? anthropicTextBlock(0, [preamble]) : [];
  return [
    anthropicMessageStart(),
    ...text,
    ANTHROPIC_PING,
    ...anthropicToolBlock(text.length > 0 ? 1 : 0, id, name, pieces),
    anthropicMessageDelta('tool_use', 40),
    ANTHROPIC_STOP,
  ];
}

export const anthropicErrors = {
  unauthorized: (key: string) => ({
    status: 401,
    json: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${key}` }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' },
  }),
  notFound: {
    status: 404,
    json: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fz' },
  },
  rateLimited: {
    status: 429,
    headers: { 'retry-after': '7' },
    json: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } },
  },
  serverError: {
    status: 500,
    json: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
  },
  overloaded: {
    status: 529,
    json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  },
};
