import type { AgentInput, PendingApprovalInfo, ExecutionResult, SerializedError } from '@lousho/core';

/** One request to a channel, with its body already read (within `maxBodyBytes`). */
export interface ChannelRequest {
  request: Request;
  url: URL;
  /** The body exactly as received. */
  rawBody: Uint8Array;
  /** Header names lower-cased; what webhook checks read. */
  headers: Record<string, string>;
}

/** Something a person did on the surface. `conversationId` is the surface's thread / chat id. */
export type ChannelInbound =
  | { type: 'message'; conversationId: string; input: AgentInput; metadata?: Record<string, unknown>; context?: unknown }
  | { type: 'decision'; conversationId: string; approvalId: string; approved: boolean; note?: string; context?: unknown }
  | { type: 'answer'; conversationId: string; approvalId: string; answer: string; context?: unknown };

interface OutboundBase {
  conversationId: string;
  sessionId: string;
  /** The inbound's `context`, handed back (e.g. where on the surface to answer). */
  context?: unknown;
}

/** What goes back to the conversation after a turn. */
export type ChannelOutbound =
  | (OutboundBase & { type: 'reply'; text: string; result: ExecutionResult })
  /** The agent paused: a tool call to approve or reject (`approval.kind === 'tool'`), or a question to answer. */
  | (OutboundBase & { type: 'approval'; approval: PendingApprovalInfo })
  | (OutboundBase & { type: 'error'; error: SerializedError });

/**
 * What `receive()` makes of a request:
 * - `{ respond }`: answer now, nothing for the agent (a handshake, a refusal, an event to ignore);
 * - `{ inbound, respond }`: answer now (an acknowledgement), run the agent afterwards and send what
 *   comes of it with `deliver()` (surfaces that want a quick answer, like Slack);
 * - `{ inbound, reply }`: run the agent, then answer the request with what came of it.
 */
export type ChannelReceipt =
  | { respond: Response; inbound?: undefined }
  | { inbound: ChannelInbound; respond: Response }
  | {
      inbound: ChannelInbound;
      /** Turns the run's outcome into the answer to the request. */
      reply: (outcome: ChannelOutbound) => Response | Promise<Response>;
    };

/** A surface people talk to the agent on (`defineChannel()`): how it turns a request into input and how it delivers replies. */
export interface ChannelDefinition {
  /** Letters, digits, `-` and `_`; it prefixes the session ids of the channel's conversations. */
  name: string;
  /** Where the channel is mounted, below `mountChannels`' `basePath`. Default `/<name>`. */
  path?: string;
  /** Reads one request: what to answer, and the input to run (if any). A throw answers 500 and reaches `onError`. */
  receive(request: ChannelRequest): ChannelReceipt | Promise<ChannelReceipt>;
  /** Sends a reply, approval request, question or error to the conversation (needed for acknowledged inbounds). */
  // A property, not a method: the reference generator keeps this comment on `Channel` (a mapped type) only then.
  deliver?: (outbound: ChannelOutbound) => void | Promise<void>;
}

/** A defined channel (what `defineChannel` returns and `mountChannels` takes). */
export type Channel = Readonly<ChannelDefinition> & { readonly path: string };
