/** A tool call the model decided to make. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/** What the model decided to say and call in one turn. */
export interface DemoReply {
  text: string;
  calls: PlannedCall[];
}
