import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { AgentGuardrails, Guardrail, GuardrailBlock, GuardrailContext } from '@lousho/protocol';

const STAGES = ['input', 'output', 'tool'] as const;

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** Throws a `LOUSHO_INVALID_CONFIG` naming what is wrong with a guardrail list (before any run uses it). */
export function assertGuardrails(guardrails: readonly unknown[], where: string): asserts guardrails is readonly Guardrail[] {
  if (!Array.isArray(guardrails)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${where} must be an array of guardrails, got ${describe(guardrails)}.`, {
      hint: 'Pass guardrails such as [secretScanGuardrail, createCommandGuardrail({ deny: [...] })].',
    });
  }
  guardrails.forEach((g, i) => {
    const item = g as Partial<Guardrail> | null;
    const problem =
      typeof item !== 'object' || item === null
        ? `is ${describe(item)}, not a guardrail object`
        : typeof item.name !== 'string' || item.name.length === 0
          ? 'has no name'
          : typeof item.check !== 'function'
            ? `'${item.name}' has no check function`
            : item.onBlock !== undefined && item.onBlock !== 'end-run' && item.onBlock !== 'deny-call'
              ? `'${item.name}' has onBlock ${JSON.stringify(item.onBlock)}; use 'end-run' or 'deny-call'`
              : undefined;
    if (problem) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${where}[${i}] ${problem}.`, {
        hint: 'A guardrail is { name, check(ctx) => ({ block: reason }) | undefined, onBlock? }.',
      });
    }
  });
}

/** Checks `createAgent({ guardrails })` and returns it with every stage present. */
export function normalizeGuardrails(value: unknown): Required<AgentGuardrails> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `guardrails must be an object { input?, output?, tool? }, got ${describe(value)}.`, {
      hint: 'e.g. guardrails: { input: [secretScanGuardrail], tool: [createCommandGuardrail({ deny: ["rm -rf /"] })] }',
    });
  }
  const unknown = Object.keys(value).filter((key) => !(STAGES as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `guardrails has unknown stage ${unknown.map((k) => `'${k}'`).join(', ')}; the stages are input, output and tool.`, {
      hint: 'Put each guardrail under the stage it checks: input, output or tool.',
    });
  }
  const out = { input: [], output: [], tool: [] } as { input: readonly Guardrail[]; output: readonly Guardrail[]; tool: readonly Guardrail[] };
  for (const stage of STAGES) {
    const list = (value as AgentGuardrails)[stage];
    if (list === undefined) continue;
    assertGuardrails(list as readonly unknown[], `guardrails.${stage}`);
    out[stage] = list;
  }
  return out;
}

/**
 * Runs `guardrails` in order on `ctx` and returns the first block (its guardrail's name, the stage,
 * the reason and how the guardrail asked to be handled), or undefined when all let it through.
 * A check that throws rejects with `LOUSHO_GUARDRAIL_FAILED`: an error never counts as a pass.
 */
export async function runGuardrails(guardrails: readonly Guardrail[], ctx: GuardrailContext): Promise<GuardrailBlock | undefined> {
  assertGuardrails(guardrails, 'runGuardrails(guardrails)');
  if (typeof ctx !== 'object' || ctx === null || !(STAGES as readonly string[]).includes((ctx as { stage?: string }).stage ?? '')) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, "runGuardrails(guardrails, ctx) needs ctx.stage: 'input', 'output' or 'tool'.", {
      hint: "e.g. runGuardrails([secretScanGuardrail], { stage: 'output', text: reply })",
    });
  }
  for (const guardrail of guardrails) {
    let verdict: unknown;
    try {
      verdict = await guardrail.check(ctx);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new SDKError(ERROR_CODES.LOUSHO_GUARDRAIL_FAILED, `Guardrail '${guardrail.name}' failed while checking the ${ctx.stage}: ${detail}`, {
        hint: 'Fix the guardrail: a check that throws fails the run instead of letting it through.',
        cause: error,
      });
    }
    if (verdict === undefined || verdict === null) continue;
    const block = (verdict as { block?: unknown }).block;
    if (typeof verdict !== 'object' || (block !== undefined && typeof block !== 'string')) {
      throw new SDKError(ERROR_CODES.LOUSHO_GUARDRAIL_FAILED, `Guardrail '${guardrail.name}' returned ${describe(verdict)} ${JSON.stringify(verdict)}; a check returns { block: reason } or nothing.`, {
        hint: 'Return { block: "why" } to stop, or undefined to let it through.',
      });
    }
    if (block === undefined) continue;
    return { name: guardrail.name, stage: ctx.stage, reason: block || `Blocked by guardrail '${guardrail.name}'.`, onBlock: guardrail.onBlock ?? 'end-run' };
  }
  return undefined;
}
