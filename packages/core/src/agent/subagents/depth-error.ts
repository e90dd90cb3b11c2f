import { ERROR_CODES } from '@lousho/protocol';
import { PropagatingToolError } from '../../tools/errors.js';

/** A delegation deeper than `maxSubagentDepth`: it rejects the whole run instead of becoming a tool result. */
export class SubagentDepthError extends PropagatingToolError {
  readonly depth: number;
  readonly maxDepth: number;
  constructor(name: string, depth: number, maxDepth: number) {
    super(`Delegating to sub-agent '${name}' would nest ${depth} levels deep; maxSubagentDepth is ${maxDepth}.`, {
      code: ERROR_CODES.LOUSHO_SUBAGENT_DEPTH,
      hint: 'Raise maxSubagentDepth on the lead agent, or give the sub-agent no sub-agents of its own.',
    });
    this.depth = depth;
    this.maxDepth = maxDepth;
  }
}
