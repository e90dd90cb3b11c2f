// Built-in tools. Isomorphic: the Node-only HTTP transport (`@lousho/tools/node`) is loaded lazily, only in Node.
export { currentDateTool, dayNameTool } from './date-tools.js';
export type { CurrentDateResult, DayNameResult, ZonedDateTime } from './date-tools.js';
export type { DayName } from './zoned-time.js';

export { createTodoTools } from './todo-tools.js';
export type { TodoListResult, TodoReadTool, TodoStore, TodoTools, TodoToolsOptions, TodoWriteArgs, TodoWriteTool } from './todo-tools.js';
export { INVALID_TODO_LIST, TodoListError } from './todo-list.js';
export type { TodoCounts, TodoItem, TodoStatus } from './todo-list.js';

export { createHttpTool, httpTool, HTTP_METHODS } from './http/http-tool.js';
export type { HttpMethod, HttpTool, HttpToolArgs, HttpToolOptions, HttpToolResult } from './http/http-tool.js';
export { HTTP_TOOL_ERROR_CODES, HttpToolError, SsrfBlockedError } from './http/http-errors.js';
export type { HttpToolErrorCode } from './http/http-errors.js';
export { createNetworkPolicy } from './http/network-policy.js';
export type { NetworkAccessOptions, NetworkPolicy } from './http/network-policy.js';
export { classifyAddress } from './http/address-classifier.js';
export type { AddressCategory, AddressClassification } from './http/address-classifier.js';
export { classifyHostname } from './http/hostname-classifier.js';
export type { HostnameClassification } from './http/hostname-classifier.js';
export { createFetchTransport } from './http/fetch-transport.js';
export type { HostResolver, HttpTransport, HttpTransportRequest, HttpTransportResponse, ResolvedAddress } from './http/transport.js';
