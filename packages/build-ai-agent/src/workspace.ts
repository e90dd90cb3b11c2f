// `@lousho/build-ai-agent/workspace`: workspace tools and providers (NodeWorkspace, MemoryWorkspace, SandboxShell), sandboxes and guardrails.
export * from '@lousho/core/workspace';
