/** Which sub-agent produced something, and where it sits: on events, hook contexts and approvals. */
export interface SubagentRef {
  /** The sub-agent's name (its key in `subagents`, or the delegate tool's agent name). */
  name: string;
  /** 1 for a sub-agent of the lead agent, 2 for a sub-agent of that one, and so on. */
  depth: number;
  /** The call in the parent run that started this sub-agent (its `task` or delegate tool call). */
  toolCallId: string;
}

/** What the lead's prompt lists about a sub-agent. */
export interface SubagentInfo {
  name: string;
  description: string;
}
