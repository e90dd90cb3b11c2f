// A skill as the agent and the loaders see it (skills/ defines and checks them).

/**
 * A skill: instructions for one kind of task. Only `name` and `description` go into the system
 * prompt; the model reads `content` (and any of `files`) through the `load_skill` tool when a task
 * calls for it, so a long playbook costs nothing until it is used.
 */
export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly content: string;
  /** Other files of the skill (paths relative to its folder, `/`-separated), listed to the model. */
  readonly files: readonly string[];
  /** Reads one of `files` as text. */
  readFile(path: string): Promise<string>;
}
