/**
 * The SDK's own errors. Every error a user (or a browser) can see has a stable `code` to branch on,
 * a `hint` saying how to fix it and a `docs` link. This module loads no other module (its one import is a type) so it can be loaded on
 * its own by any entry point.
 */

import type { SerializedError } from './contracts/errors.js';
export type { SerializedError } from './contracts/errors.js';

/**
 * Every stable error code of every Lousho package, in one flat object (`ERROR_CODES.LOUSHO_DUPLICATE_TOOL`,
 * ...): a code's key is its value. docs/errors.md says, for each, what happened and what to do.
 * The browser client also has its codes in two small tables (`CLIENT_ERROR_CODES`,
 * `EVENT_STREAM_ERROR_CODES`), so a page bundles only those; every one of them is here too (a test
 * checks it).
 */
export const ERROR_CODES = {
  // The agent, its tools and its configuration.
  /** Something failed that the SDK did not expect; the message names the original error. */
  LOUSHO_INTERNAL: 'LOUSHO_INTERNAL',
  /** A user-supplied value (message, option, request body) is malformed. */
  LOUSHO_INVALID_INPUT: 'LOUSHO_INVALID_INPUT',
  /** `defineTool()` or a registered descriptor has a bad name, description, schema or function. */
  LOUSHO_INVALID_TOOL_DEFINITION: 'LOUSHO_INVALID_TOOL_DEFINITION',
  /** Two tools were registered under the same name. */
  LOUSHO_DUPLICATE_TOOL: 'LOUSHO_DUPLICATE_TOOL',
  /** A name given to the registry (e.g. by an agent config) has no tool behind it. */
  LOUSHO_UNKNOWN_TOOL: 'LOUSHO_UNKNOWN_TOOL',
  /** A schema cannot be turned into the JSON Schema providers need. */
  LOUSHO_UNSUPPORTED_SCHEMA: 'LOUSHO_UNSUPPORTED_SCHEMA',
  /** The model's tool arguments did not match the tool's input schema. */
  LOUSHO_INVALID_TOOL_ARGUMENTS: 'LOUSHO_INVALID_TOOL_ARGUMENTS',
  /** A tool's result did not match its `outputSchema`. */
  LOUSHO_INVALID_TOOL_OUTPUT: 'LOUSHO_INVALID_TOOL_OUTPUT',
  /** The model called a tool that is not registered. */
  LOUSHO_TOOL_NOT_FOUND: 'LOUSHO_TOOL_NOT_FOUND',
  /** A reviewer rejected a tool call. */
  LOUSHO_TOOL_REJECTED: 'LOUSHO_TOOL_REJECTED',
  /** A tool call was never started. */
  LOUSHO_TOOL_NOT_RUN: 'LOUSHO_TOOL_NOT_RUN',
  /** A permission rule refused a tool call. */
  LOUSHO_TOOL_DENIED: 'LOUSHO_TOOL_DENIED',
  /** A stop reached a tool call before it ran. */
  LOUSHO_TOOL_CANCELLED: 'LOUSHO_TOOL_CANCELLED',
  /** A tool needs a sandbox it cannot have. */
  LOUSHO_SANDBOX_REQUIRED: 'LOUSHO_SANDBOX_REQUIRED',
  /** A tool error that must abort the run instead of becoming a result. */
  LOUSHO_PROPAGATING_TOOL_ERROR: 'LOUSHO_PROPAGATING_TOOL_ERROR',
  /** A delegation would nest sub-agents deeper than `maxSubagentDepth` (it rejects the run). */
  LOUSHO_SUBAGENT_DEPTH: 'LOUSHO_SUBAGENT_DEPTH',
  /** A sub-agent ran out of a budget (its own `limits` or its lead run's) before it answered; its delegating call gets this error. */
  LOUSHO_SUBAGENT_BUDGET: 'LOUSHO_SUBAGENT_BUDGET',
  /** `todo_write` got a list it cannot keep (two items in progress, a bad status). */
  LOUSHO_INVALID_TODO_LIST: 'LOUSHO_INVALID_TODO_LIST',
  /** An `ask_question` call was resumed without an answer. */
  LOUSHO_QUESTION_NOT_ANSWERED: 'LOUSHO_QUESTION_NOT_ANSWERED',
  /** A browser tool (`defineTool()` without `execute`) was executed on the server instead of pausing for the page. */
  LOUSHO_CLIENT_TOOL_ON_SERVER: 'LOUSHO_CLIENT_TOOL_ON_SERVER',
  /** An agent/builder option has a value the SDK cannot use. */
  LOUSHO_INVALID_CONFIG: 'LOUSHO_INVALID_CONFIG',
  /** A dynamic config resolver threw or returned something unusable. */
  LOUSHO_CONFIG_RESOLVER_FAILED: 'LOUSHO_CONFIG_RESOLVER_FAILED',
  /** An options object has a key the SDK does not know (the message names the closest known one). */
  LOUSHO_UNKNOWN_OPTION: 'LOUSHO_UNKNOWN_OPTION',
  /** A documented option that this version does not implement yet: refused rather than ignored. */
  LOUSHO_UNSUPPORTED_OPTION: 'LOUSHO_UNSUPPORTED_OPTION',
  /** A skill (`defineSkill()` or a `SKILL.md` file) is malformed; the message names the file and the field. */
  LOUSHO_INVALID_SKILL: 'LOUSHO_INVALID_SKILL',
  /** An agent spec file or object is malformed; the message names the file, the line and the field. */
  LOUSHO_INVALID_SPEC: 'LOUSHO_INVALID_SPEC',
  /** A model request does not fit the model's context window even after compaction. */
  LOUSHO_CONTEXT_OVERFLOW: 'LOUSHO_CONTEXT_OVERFLOW',
  /** `registerModel()` was given an entry it cannot use. */
  LOUSHO_MODEL_INFO_INVALID: 'LOUSHO_MODEL_INFO_INVALID',

  // MCP.
  /** An MCP server answered a call with `isError: true`. */
  LOUSHO_MCP_TOOL_ERROR: 'LOUSHO_MCP_TOOL_ERROR',
  /** An MCP server could not be started or reached (the message names the server and its command or URL). */
  LOUSHO_MCP_CONNECT_FAILED: 'LOUSHO_MCP_CONNECT_FAILED',
  /** An MCP call failed without an answer: a timeout, a crashed server, a protocol error. */
  LOUSHO_MCP_CALL_FAILED: 'LOUSHO_MCP_CALL_FAILED',
  /** `mcpServers` was given to an agent built without MCP support (core's `createAgent`). */
  LOUSHO_MCP_UNAVAILABLE: 'LOUSHO_MCP_UNAVAILABLE',
  /** An MCP call's result went over `maxResultBytes` (default 1 MiB); reading stopped there and the call is an `mcp` tool error. */
  LOUSHO_MCP_RESULT_TOO_LARGE: 'LOUSHO_MCP_RESULT_TOO_LARGE',
  /** An agent served with `serveMcp()` paused for a person, and the MCP client cannot ask one (it declared no form elicitation): the approval was refused. */
  LOUSHO_MCP_ELICITATION_UNSUPPORTED: 'LOUSHO_MCP_ELICITATION_UNSUPPORTED',
  /** An agent served with `serveMcp()` ended its run before its work was done (a guardrail, a budget, `maxSteps`, invalid structured output): the MCP tool result is an error naming why. */
  LOUSHO_MCP_RUN_INCOMPLETE: 'LOUSHO_MCP_RUN_INCOMPLETE',

  // Approvals and sessions.
  /** No pending approval has the given id. */
  LOUSHO_APPROVAL_NOT_FOUND: 'LOUSHO_APPROVAL_NOT_FOUND',
  /** The approval exists but was already decided. */
  LOUSHO_APPROVAL_NOT_PENDING: 'LOUSHO_APPROVAL_NOT_PENDING',
  /** `approve()` was used on a question, or `answer()` on a tool approval. */
  LOUSHO_APPROVAL_KIND_MISMATCH: 'LOUSHO_APPROVAL_KIND_MISMATCH',
  /** The session is paused on an approval; decide it before sending more. */
  LOUSHO_SESSION_AWAITING_APPROVAL: 'LOUSHO_SESSION_AWAITING_APPROVAL',
  /** The session is already running a turn. */
  LOUSHO_SESSION_BUSY: 'LOUSHO_SESSION_BUSY',
  /** No message with that id waits in the session's queue (it was sent, steered in or removed already). */
  LOUSHO_QUEUED_MESSAGE_NOT_FOUND: 'LOUSHO_QUEUED_MESSAGE_NOT_FOUND',
  /** The agent cannot queue messages (it is not one `createAgent()` made: e.g. a flow served as an agent). */
  LOUSHO_QUEUE_UNSUPPORTED: 'LOUSHO_QUEUE_UNSUPPORTED',

  // Stores.
  /** Another run took the session over (its lease ran out, or `agent.resume()` forced it): this one stops. */
  LOUSHO_SESSION_LEASE_LOST: 'LOUSHO_SESSION_LEASE_LOST',
  /** `agent.resume(id)` on a session with no unfinished run. */
  LOUSHO_SESSION_NOT_RESUMABLE: 'LOUSHO_SESSION_NOT_RESUMABLE',
  /** A thread-list cursor the store did not write (`GET /sessions?cursor=`, `listPage()`). */
  LOUSHO_SESSION_CURSOR_INVALID: 'LOUSHO_SESSION_CURSOR_INVALID',
  /** A session title that is not a string of 1 to 100 characters once trimmed (rename). */
  LOUSHO_SESSION_TITLE_INVALID: 'LOUSHO_SESSION_TITLE_INVALID',
  /** A thread-list `limit` that is not a whole number from 1 to 100. */
  LOUSHO_SESSION_LIMIT_INVALID: 'LOUSHO_SESSION_LIMIT_INVALID',
  /** The agent's session store has no `listPage` / `rename`: threads cannot be listed or renamed. */
  LOUSHO_SESSION_LIST_UNSUPPORTED: 'LOUSHO_SESSION_LIST_UNSUPPORTED',
  // Files (attachments).
  /** An uploaded file larger than the handler's `maxFileBytes` (413). */
  LOUSHO_FILE_TOO_LARGE: 'LOUSHO_FILE_TOO_LARGE',
  /** An upload whose media type is not allowed, or whose bytes are not of the type it claims (415). */
  LOUSHO_FILE_TYPE_REFUSED: 'LOUSHO_FILE_TYPE_REFUSED',
  /** A file id that is not stored (never was, another session's, or deleted since). */
  LOUSHO_FILE_NOT_FOUND: 'LOUSHO_FILE_NOT_FOUND',
  /** The agent has no file store (`createAgent({ files })`): uploads and attachments cannot be kept (501). */
  LOUSHO_FILES_UNSUPPORTED: 'LOUSHO_FILES_UNSUPPORTED',
  /** A store file that is not a valid store (damaged, or not a database at all). */
  LOUSHO_STORE_CORRUPT: 'LOUSHO_STORE_CORRUPT',
  /** A checkpoint write a store cannot apply: a session's first checkpoint without the run start. */
  LOUSHO_CHECKPOINT_INVALID: 'LOUSHO_CHECKPOINT_INVALID',
  /** A store file written by a newer version of the package (its schema is unknown here). */
  LOUSHO_STORE_VERSION: 'LOUSHO_STORE_VERSION',
  /** The store could not be opened or written (permissions, a full disk, a missing driver). */
  LOUSHO_STORE_UNAVAILABLE: 'LOUSHO_STORE_UNAVAILABLE',
  /** A `StorageService` could not read or write a value (I/O failure, corrupt data, a lock held too long). */
  LOUSHO_STORAGE_ERROR: 'LOUSHO_STORAGE_ERROR',
  /** An encryption key is not 32 bytes of AES-256 key material. */
  LOUSHO_INVALID_ENCRYPTION_KEY: 'LOUSHO_INVALID_ENCRYPTION_KEY',
  /** Encrypted data was tampered with, truncated, or encrypted with another key. */
  LOUSHO_DECRYPTION_FAILED: 'LOUSHO_DECRYPTION_FAILED',

  // Providers.
  /** The LLM provider failed (network, HTTP status, malformed stream). */
  LOUSHO_PROVIDER_ERROR: 'LOUSHO_PROVIDER_ERROR',
  /** A provider answered with a non-2xx HTTP status (see `ProviderHttpError`). */
  LOUSHO_PROVIDER_HTTP_ERROR: 'LOUSHO_PROVIDER_HTTP_ERROR',
  /** A provider needs an API key and none was given or found in the environment. */
  LOUSHO_MISSING_API_KEY: 'LOUSHO_MISSING_API_KEY',
  /** A model string names a provider the registry does not know. */
  LOUSHO_UNKNOWN_PROVIDER: 'LOUSHO_UNKNOWN_PROVIDER',
  /** Every provider given to `withFallback()` failed. */
  LOUSHO_ALL_PROVIDERS_FAILED: 'LOUSHO_ALL_PROVIDERS_FAILED',

  // Testing.
  /** A mock provider ran out of scripted responses. */
  LOUSHO_MOCK_EXHAUSTED: 'LOUSHO_MOCK_EXHAUSTED',
  /** `assertExhausted()` found scripted steps that were never used. */
  LOUSHO_MOCK_UNUSED_STEPS: 'LOUSHO_MOCK_UNUSED_STEPS',
  /** A `recordReplay` request differs from every recorded one (the message shows the diff). */
  LOUSHO_CASSETTE_MISMATCH: 'LOUSHO_CASSETTE_MISMATCH',
  /** A `recordReplay` cassette was asked for more model calls than it holds. */
  LOUSHO_CASSETTE_EXHAUSTED: 'LOUSHO_CASSETTE_EXHAUSTED',
  // The command guardrail's verdict codes (`GuardrailVerdict.code`): why a command line was blocked.
  /** A command matches (or may match) one of the guardrail's `deny` rules. */
  LOUSHO_COMMAND_DENIED: 'LOUSHO_COMMAND_DENIED',
  /** A command matches none of the guardrail's `allow` rules. */
  LOUSHO_COMMAND_NOT_ALLOWED: 'LOUSHO_COMMAND_NOT_ALLOWED',
  /** The guardrail cannot tell what a command runs (a computed command or directory, code in an argument, a risky variable): refused. */
  LOUSHO_COMMAND_UNVERIFIABLE: 'LOUSHO_COMMAND_UNVERIFIABLE',
  /** A redirection writes outside the workspace. */
  LOUSHO_COMMAND_OUTSIDE_WORKSPACE: 'LOUSHO_COMMAND_OUTSIDE_WORKSPACE',
  /** The command line is not valid shell, or nests past the guardrail's bounds. */
  LOUSHO_COMMAND_UNPARSABLE: 'LOUSHO_COMMAND_UNPARSABLE',
  /** The command line is longer than the guardrail reads (`MAX_COMMAND_LINE_LENGTH`). */
  LOUSHO_COMMAND_TOO_LONG: 'LOUSHO_COMMAND_TOO_LONG',
  /** The tool call has no command text for the guardrail to check. */
  LOUSHO_COMMAND_MISSING: 'LOUSHO_COMMAND_MISSING',
  /** `secretScanGuardrail` blocked tool arguments too large to read whole (the reason starts with this code). */
  LOUSHO_SECRET_SCAN_LIMIT: 'LOUSHO_SECRET_SCAN_LIMIT',
  /** A guardrail's check threw (or a guardrail is malformed): the run fails rather than passing unchecked. */
  LOUSHO_GUARDRAIL_FAILED: 'LOUSHO_GUARDRAIL_FAILED',
  /** `parseShell()` could not read a command line (the command guardrail blocks such a line). */
  LOUSHO_SHELL_SYNTAX: 'LOUSHO_SHELL_SYNTAX',
  /** A workspace path leaves the workspace root (`..`, an absolute path, a symlink pointing out). */
  LOUSHO_WORKSPACE_PATH_OUTSIDE: 'LOUSHO_WORKSPACE_PATH_OUTSIDE',
  /** A workspace file or directory does not exist, or is not the kind the operation needs. */
  LOUSHO_WORKSPACE_NOT_FOUND: 'LOUSHO_WORKSPACE_NOT_FOUND',
  /** A workspace file is too large, or binary, for the operation (e.g. editing it as text). */
  LOUSHO_WORKSPACE_FILE_UNSUITABLE: 'LOUSHO_WORKSPACE_FILE_UNSUITABLE',
  /** `edit_file` found its text zero times, or several times without `replace_all`. */
  LOUSHO_EDIT_NO_UNIQUE_MATCH: 'LOUSHO_EDIT_NO_UNIQUE_MATCH',
  /** A workspace or sandbox operation failed in the file system or the process (permissions, spawn failure). */
  LOUSHO_WORKSPACE_IO: 'LOUSHO_WORKSPACE_IO',
  /** A Node-only part (NodeWorkspace, SubprocessSandbox) was used in a runtime without Node's built-in modules. */
  LOUSHO_UNSUPPORTED_RUNTIME: 'LOUSHO_UNSUPPORTED_RUNTIME',
  /**
   * An untrusted regular expression (an MCP schema's `pattern`, the `grep` tool's) needs a feature the
   * linear-time engine (RE2) lacks, such as backreferences or lookaround: it is refused, never run on
   * a backtracking engine.
   */
  LOUSHO_REGEX_UNSUPPORTED: 'LOUSHO_REGEX_UNSUPPORTED',
  /** Untrusted input went over a documented bound (a result, a description, a count, a file, a nesting); the message names the bound and the option that sets it. */
  LOUSHO_LIMIT_EXCEEDED: 'LOUSHO_LIMIT_EXCEEDED',
  /** `BubblewrapSandbox` cannot start here: bubblewrap is not installed, or the kernel refuses it namespaces. */
  LOUSHO_SANDBOX_UNAVAILABLE: 'LOUSHO_SANDBOX_UNAVAILABLE',
  /** A sandbox option this machine (or this version) cannot enforce: refused rather than ignored. */
  LOUSHO_SANDBOX_UNSUPPORTED: 'LOUSHO_SANDBOX_UNSUPPORTED',

  // Flows (`@lousho/flows`).
  /** A flow's graph is not valid (`FlowBuilder…build()`): an unknown or duplicate id, an unreachable node, a cycle without a bound. */
  LOUSHO_FLOW_INVALID: 'LOUSHO_FLOW_INVALID',
  /** A flow node failed, which failed the flow; the error names the node and carries what it threw. */
  LOUSHO_FLOW_NODE_FAILED: 'LOUSHO_FLOW_NODE_FAILED',
  /** An evaluator node's expression could not be evaluated (`Failed to evaluate expression: ...`). */
  LOUSHO_FLOW_EXPRESSION_FAILED: 'LOUSHO_FLOW_EXPRESSION_FAILED',
  /** A flow agent node's reply did not match its `output` schema. */
  LOUSHO_FLOW_OUTPUT_INVALID: 'LOUSHO_FLOW_OUTPUT_INVALID',
  /** A session's checkpoint belongs to another flow (or to an agent), or to a flow whose nodes changed since. */
  LOUSHO_FLOW_CHECKPOINT_MISMATCH: 'LOUSHO_FLOW_CHECKPOINT_MISMATCH',
  /** A session's latest flow run was interrupted, and the new run's input differs from its input. */
  LOUSHO_FLOW_SESSION_UNFINISHED: 'LOUSHO_FLOW_SESSION_UNFINISHED',
  /** A flow expression is outside the supported language (the message names the position and the supported forms). */
  LOUSHO_EXPRESSION_INVALID: 'LOUSHO_EXPRESSION_INVALID',

  // Evals (`@lousho/evals`, `lousho eval`).
  /** An eval, a case, a scorer or a check is malformed (the message says which and why). */
  LOUSHO_EVAL_INVALID: 'LOUSHO_EVAL_INVALID',
  /** A run took longer than the eval's `timeoutMs`. */
  LOUSHO_EVAL_TIMEOUT: 'LOUSHO_EVAL_TIMEOUT',
  /** A judge model's reply was not a JSON object with a score in [0, 1] and a reason. */
  LOUSHO_EVAL_JUDGE_INVALID: 'LOUSHO_EVAL_JUDGE_INVALID',
  /** A scorer returned something that is not a score in [0, 1] with a reason. */
  LOUSHO_EVAL_SCORE_INVALID: 'LOUSHO_EVAL_SCORE_INVALID',

  // The HTTP handler (besides the agent's own codes, which it answers with too).
  /** `authorize()` returned null: the request has no (valid) credentials. */
  LOUSHO_UNAUTHORIZED: 'LOUSHO_UNAUTHORIZED',
  /** No route matches the path. */
  LOUSHO_ROUTE_NOT_FOUND: 'LOUSHO_ROUTE_NOT_FOUND',
  /** The route exists but not with this method (see the `Allow` header). */
  LOUSHO_METHOD_NOT_ALLOWED: 'LOUSHO_METHOD_NOT_ALLOWED',
  /** The request body is larger than `maxBodyBytes`. */
  LOUSHO_BODY_TOO_LARGE: 'LOUSHO_BODY_TOO_LARGE',
  /** A JSON body was sent without `content-type: application/json`. */
  LOUSHO_UNSUPPORTED_MEDIA_TYPE: 'LOUSHO_UNSUPPORTED_MEDIA_TYPE',
  /** The request body stopped before its end (the client went away while sending it). */
  LOUSHO_BODY_INCOMPLETE: 'LOUSHO_BODY_INCOMPLETE',
  /** A stream's connection was closed because its reader fell more than `maxBufferedBytes` behind (never sent). */
  LOUSHO_SLOW_READER: 'LOUSHO_SLOW_READER',
  /** The server is draining after SIGTERM and takes no new turns. */
  LOUSHO_SHUTTING_DOWN: 'LOUSHO_SHUTTING_DOWN',
  /** An AG-UI request (`@lousho/ag-ui`) sent tools of its own (frontend tools), which the endpoint cannot run. */
  LOUSHO_AGUI_FRONTEND_TOOLS_UNSUPPORTED: 'LOUSHO_AGUI_FRONTEND_TOOLS_UNSUPPORTED',

  // The `http` tool.
  /** The URL is not absolute, cannot be parsed, or carries credentials. */
  LOUSHO_HTTP_INVALID_URL: 'LOUSHO_HTTP_INVALID_URL',
  /** The scheme is not http: or https:. */
  LOUSHO_HTTP_SCHEME_NOT_ALLOWED: 'LOUSHO_HTTP_SCHEME_NOT_ALLOWED',
  /** The request cannot be sent as given (e.g. a body on a GET). */
  LOUSHO_HTTP_INVALID_REQUEST: 'LOUSHO_HTTP_INVALID_REQUEST',
  /** A request header the tool sets itself (host, content-length, ...) was given. */
  LOUSHO_HTTP_HEADER_NOT_ALLOWED: 'LOUSHO_HTTP_HEADER_NOT_ALLOWED',
  /** The SSRF guard refused the destination before connecting. */
  LOUSHO_HTTP_DESTINATION_REFUSED: 'LOUSHO_HTTP_DESTINATION_REFUSED',
  /** The hostname could not be resolved. */
  LOUSHO_HTTP_DNS_FAILED: 'LOUSHO_HTTP_DNS_FAILED',
  /** More redirects than `maxRedirects`. */
  LOUSHO_HTTP_TOO_MANY_REDIRECTS: 'LOUSHO_HTTP_TOO_MANY_REDIRECTS',
  /** The request took longer than `timeoutMs`. */
  LOUSHO_HTTP_TIMEOUT: 'LOUSHO_HTTP_TIMEOUT',
  /** Connecting, sending or reading failed. */
  LOUSHO_HTTP_REQUEST_FAILED: 'LOUSHO_HTTP_REQUEST_FAILED',
  /** The runtime cannot run the chosen transport. */
  LOUSHO_HTTP_UNSUPPORTED_RUNTIME: 'LOUSHO_HTTP_UNSUPPORTED_RUNTIME',

  // Integrations (`@lousho/integrations`).
  /** The service answered with an error (bad credentials, a missing resource, a refused request). */
  LOUSHO_INTEGRATION_ERROR: 'LOUSHO_INTEGRATION_ERROR',
  /** The service kept rate-limiting the call after the retries it allows. */
  LOUSHO_INTEGRATION_RATE_LIMITED: 'LOUSHO_INTEGRATION_RATE_LIMITED',

  // Triggers (`@lousho/triggers`).
  /** A cron expression (or its time zone) cannot be used; the message names the field. */
  LOUSHO_INVALID_CRON_EXPRESSION: 'LOUSHO_INVALID_CRON_EXPRESSION',
  /** `listen()` was called twice, or `handleRequest()` before `listen()`. */
  LOUSHO_TRIGGER_STATE: 'LOUSHO_TRIGGER_STATE',
  /** A webhook or Slack trigger, or `mountChannels()`, already runs `maxConcurrentRuns` runs: the request is answered 429 with `Retry-After`. */
  LOUSHO_TRIGGER_BUSY: 'LOUSHO_TRIGGER_BUSY',
  /** A Slack Web API call was answered with `ok: false` (the message has Slack's own error code). */
  LOUSHO_SLACK_API_ERROR: 'LOUSHO_SLACK_API_ERROR',

  // `lousho build` (`@lousho/cli`).
  /** The agent module is missing, or no `--target` adapter has that name. */
  LOUSHO_DEPLOY_INVALID: 'LOUSHO_DEPLOY_INVALID',
  /** esbuild is not installed; `lousho build` bundles with it. */
  LOUSHO_DEPLOY_BUNDLER_MISSING: 'LOUSHO_DEPLOY_BUNDLER_MISSING',
  /** The bundle could not be built (a module not found, a syntax error). */
  LOUSHO_DEPLOY_BUNDLE_FAILED: 'LOUSHO_DEPLOY_BUNDLE_FAILED',
  /** A module the workers bundle needs imports a Node built-in. */
  LOUSHO_DEPLOY_NODE_BUILTIN: 'LOUSHO_DEPLOY_NODE_BUILTIN',

  // The browser client (also in `CLIENT_ERROR_CODES`).
  /** The requested resume point is no longer (or not yet) in the session's event log: re-read the session. */
  LOUSHO_STREAM_GAP: 'LOUSHO_STREAM_GAP',
  /** The server could not be reached, or the connection broke. */
  LOUSHO_NETWORK_ERROR: 'LOUSHO_NETWORK_ERROR',
  /** The stream of a running turn ended without its end event, and resuming it did not work. */
  LOUSHO_STREAM_INTERRUPTED: 'LOUSHO_STREAM_INTERRUPTED',
  /** The server answered with something the client cannot read. */
  LOUSHO_BAD_RESPONSE: 'LOUSHO_BAD_RESPONSE',
  /** The client stopped following the run (its last subscriber left, or `reset()`): the run goes on. */
  LOUSHO_CLIENT_DETACHED: 'LOUSHO_CLIENT_DETACHED',
  /** `destroy()` was called: the client does nothing any more. */
  LOUSHO_CLIENT_DESTROYED: 'LOUSHO_CLIENT_DESTROYED',
  /** The session is not known (or belongs to someone else). */
  LOUSHO_SESSION_NOT_FOUND: 'LOUSHO_SESSION_NOT_FOUND',

  // The event-stream parser, `parseEventStream` (also in `EVENT_STREAM_ERROR_CODES`).
  /** The response status was not 2xx and its body carried no `{ error: { code, message } }`. */
  LOUSHO_STREAM_HTTP_ERROR: 'LOUSHO_STREAM_HTTP_ERROR',
  /** The response is not an event stream (wrong `content-type`). */
  LOUSHO_STREAM_NOT_SSE: 'LOUSHO_STREAM_NOT_SSE',
  /** The response body was already read or locked by someone else. */
  LOUSHO_STREAM_BODY_UNAVAILABLE: 'LOUSHO_STREAM_BODY_UNAVAILABLE',
  /** An event's `data` is not valid JSON. */
  LOUSHO_STREAM_BAD_JSON: 'LOUSHO_STREAM_BAD_JSON',
  /** An event's `data` is JSON but not an object with a string `type`. */
  LOUSHO_STREAM_BAD_EVENT: 'LOUSHO_STREAM_BAD_EVENT',
  /** An event arrived before the stream said which protocol version it speaks. */
  LOUSHO_STREAM_MISSING_VERSION: 'LOUSHO_STREAM_MISSING_VERSION',
  /** The stream speaks a protocol version this client does not know. */
  LOUSHO_STREAM_UNSUPPORTED_VERSION: 'LOUSHO_STREAM_UNSUPPORTED_VERSION',
  /** One event grew past `maxEventSize` characters. */
  LOUSHO_STREAM_EVENT_TOO_LARGE: 'LOUSHO_STREAM_EVENT_TOO_LARGE',
} as const;

/** Any code of `ERROR_CODES` (`'LOUSHO_INVALID_CONFIG'`, ...): what `SDKError.code` holds. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Where the error reference lives; each code has an anchor there. */
export const ERRORS_DOCS_URL = 'https://lousho.com/errors';

/** The docs anchor of a code: `LOUSHO_DUPLICATE_TOOL` → `https://lousho.com/errors#lousho-duplicate-tool`. */
export const errorDocsUrl = (code: string): string => `${ERRORS_DOCS_URL}#${code.toLowerCase().replace(/_/g, '-')}`;

/** The optional parts of an `SDKError`: a hint, a docs link (derived from the code by default) and the cause. */
export interface SDKErrorOptions {
  /** How to fix it, in one sentence. */
  hint?: string;
  /** A docs URL; defaults to the code's anchor in the error reference. */
  docs?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

// A registry-wide brand, so two copies of the package (a bundled one and a linked one) still agree.
const SDK_ERROR_BRAND = Symbol.for('lousho.sdkError');

/**
 * Base class of the SDK's errors: a stable `code`, a `hint` and a `docs` link. Every error a page
 * can see is one too (`AgentClientError`, `EventStreamError`), so this class is in every browser
 * bundle: written small.
 */
export class SDKError extends Error {
  declare readonly code: string;
  /** How to fix it, in one sentence (empty when the message and the docs say enough). */
  declare readonly hint: string;
  /** The code's entry in the error reference, unless another page was given. */
  declare readonly docs: string;

  constructor(code: ErrorCode | (string & {}), message: string, options?: SDKErrorOptions) {
    // The options go to Error whole (it takes `cause` when there is one and ignores the rest), and
    // onto the error: what a subclass passes besides (`status`, `eventId`) lands as its own fields.
    super(message, options);
    Object.assign(this, options, { name: 'SDKError', code, hint: options?.hint ?? '', docs: options?.docs ?? errorDocsUrl(code) });
  }

  static {
    // On the prototype, so every instance (of any copy of the package) carries it for `is()`.
    (this.prototype as unknown as Record<symbol, boolean>)[SDK_ERROR_BRAND] = true;
  }

  /** `instanceof` that also recognises errors made by another copy of the package. */
  static is(value: unknown): value is SDKError {
    return (value as Record<symbol, unknown> | null | undefined)?.[SDK_ERROR_BRAND] === true;
  }
}

/** Longest message `serializeError` keeps; past it the text is cut and marked. */
export const MAX_ERROR_MESSAGE_LENGTH = 2000;
/** Ends a tool error message that was cut at 2,000 characters. */
export const TRUNCATION_MARKER = '... (truncated)';

/**
 * Cuts `text` to at most `max` characters, the marker included, without splitting a surrogate pair.
 * Text that fits is returned unchanged.
 */
export function truncateMessage(text: string, max = MAX_ERROR_MESSAGE_LENGTH): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - TRUNCATION_MARKER.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // do not leave half a surrogate pair behind
  return text.slice(0, end) + TRUNCATION_MARKER;
}

// A V8 frame ("    at fn (file.js:1:2)", "    at <anonymous>") or a SpiderMonkey/JSC one ("fn@file.js:1:2").
const STACK_FRAME_LINE = /^(?:\s+at\s.*(?::\d+:\d+\)?|\(native\)|<anonymous>\)?)|[^\s@]*@\S+:\d+:\d+)$/;

/** Drops stack-frame lines some libraries paste into messages, so no stack leaks through a message either. */
export function stripStackFrames(text: string): string {
  if (!text.includes('\n')) return text;
  return text
    .split('\n')
    .filter((line) => !STACK_FRAME_LINE.test(line))
    .join('\n')
    .trimEnd();
}

/** A readable one-line text for any thrown value (never its stack). */
export function describeThrown(value: unknown): { name: string | undefined; message: string } {
  if (value instanceof Error || isErrorLike(value)) {
    const { name, message } = value as { name?: unknown; message?: unknown };
    return { name: typeof name === 'string' && name ? name : undefined, message: typeof message === 'string' ? message : '' };
  }
  if (typeof value === 'string') return { name: undefined, message: value };
  if (value === undefined || value === null || typeof value !== 'object') return { name: undefined, message: String(value) };
  try {
    const json = JSON.stringify(value);
    if (json !== undefined && json !== '{}') return { name: undefined, message: json };
  } catch {
    // Cycles or bigints: fall through to the tag.
  }
  return { name: undefined, message: Object.prototype.toString.call(value) };
}

function isErrorLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

/**
 * What a server may send about an error: an SDK error keeps its code and message; anything else
 * becomes `LOUSHO_INTERNAL` with `Name: message`. Never a stack.
 */
export function serializeError(err: unknown): SerializedError {
  if (SDKError.is(err)) return { code: err.code, message: truncateMessage(stripStackFrames(err.message)) };
  const { name, message } = describeThrown(err);
  const text = name ? (message ? `${name}: ${message}` : name) : message || 'Unknown error';
  return { code: ERROR_CODES.LOUSHO_INTERNAL, message: truncateMessage(stripStackFrames(text)) };
}
