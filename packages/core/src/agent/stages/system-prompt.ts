import { recallSection } from '../../memory/recall.js';
import type { LoopDeps } from '../loop-deps.js';
import type { RunSnapshot } from '@lousho/protocol';

/**
 * The stage "recall memory / list skills": the system prompt of a model call. `deps.system` already
 * holds the instructions, project instructions and the list of skills (resolved when the run
 * started); the memories are recalled on the run's first model call and kept in the snapshot, so
 * every call of the run sends the same prompt (and a provider's prompt cache keeps working).
 */
export async function systemPromptStage(deps: LoopDeps, snapshot: RunSnapshot): Promise<string | undefined> {
  if (deps.memory && deps.memory.length > 0 && snapshot.recalled === undefined) {
    const sections: string[] = [];
    for (const slot of deps.memory) {
      const section = await recallSection(slot, snapshot.model || undefined);
      if (section) sections.push(section);
    }
    snapshot.recalled = sections.join('\n\n');
  }
  const parts = [deps.system, snapshot.recalled].filter((part): part is string => typeof part === 'string' && part.length > 0);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
