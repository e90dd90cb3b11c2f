// lousho-api-overview.md, "Flows, evals, observability and security" (HookRegistry), unchanged.
import { HookRegistry, type AgentHook } from '@lousho/build-ai-agent/hooks';

const redactPii: AgentHook = {
  name: 'redact-pii',
  async preToolCall(ctx) {
    // mutate ctx.args, or throw to abort the tool call before it runs
  },
};
const hooks = new HookRegistry();
hooks.register(redactPii);

export { hooks };
