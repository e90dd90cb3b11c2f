/** One hop of an `http` tool call, as handed to a transport. Redirects are not followed by transports. */
export interface HttpTransportRequest {
  url: URL;
  method: string;
  /** Header names are lower-case. */
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** Stop reading the body after this many (decoded) bytes. */
  maxResponseBytes: number;
  /**
   * Throws when the host may not be reached at `address`. A transport that resolves names must
   * call it for every address it got, before connecting, and connect only to checked addresses.
   */
  checkResolvedAddress(hostname: string, address: string): void;
}

/** A response as the `http` tool's transport hands it over: status, headers and a body stream. */
export interface HttpTransportResponse {
  status: number;
  statusText: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** At most `maxResponseBytes` bytes of the decoded body. */
  body: Uint8Array;
  /** True when the body was cut at `maxResponseBytes`. */
  truncated: boolean;
  /** The address the connection went to, when the transport knows it. */
  remoteAddress?: string;
}

/**
 * Sends one request without following redirects. The default in Node is the transport of
 * `@lousho/tools/node` (pinned DNS; users import it from `@lousho/build-ai-agent/node`); elsewhere a
 * `fetch` transport.
 */
export type HttpTransport = (request: HttpTransportRequest) => Promise<HttpTransportResponse>;

/** One address a hostname resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to every address it has (like `dns.lookup(name, { all: true })`). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;
