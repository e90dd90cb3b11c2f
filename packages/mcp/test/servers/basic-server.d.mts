export declare const PIXEL_PNG: string;
export declare function createBasicServer(log?: (line: string) => void): import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;
