import { describe, expectTypeOf, it } from 'vitest';
import type { DefinedTool, ResultWithArtifacts } from '../../src/tools/types.js';
import type { ToolErrorResult } from '../../src/contracts/tools.js';
import type { AgentUIState, UIMessage, UIToolPart, UIToolPartOf } from '../../src/ui-state/index.js';
import { reduceAgentEvents } from '../../src/ui-state/index.js';

type Weather = DefinedTool<'get_weather', { city: string }, Promise<{ tempC: number }>>;
type Search = DefinedTool<'search', { query: string }, ResultWithArtifacts<string[]>>;
type Parts = UIToolPartOf<Weather | Search>;

describe('UI state types', () => {
  it('UIToolPartOf turns defineTool() tools into tool parts a binding can narrow by name', () => {
    expectTypeOf<UIToolPartOf<Weather>>().toEqualTypeOf<UIToolPart<'get_weather', { city: string }, { tempC: number }>>();
    expectTypeOf<UIToolPartOf<Search>>().toEqualTypeOf<UIToolPart<'search', { query: string }, string[]>>();

    const state = {} as AgentUIState<Parts>;
    const part = state.messages[0]!.parts[0]!;
    if (part.type === 'tool') {
      if (part.toolName === 'get_weather') {
        expectTypeOf(part.args).toEqualTypeOf<{ city: string } | undefined>();
        expectTypeOf(part.result).toEqualTypeOf<{ tempC: number } | undefined>();
      } else {
        expectTypeOf(part.toolName).toEqualTypeOf<'search'>();
        expectTypeOf(part.result).toEqualTypeOf<string[] | undefined>();
      }
      expectTypeOf(part.error).toEqualTypeOf<ToolErrorResult | undefined>();
    }
  });

  it('reduceAgentEvents keeps the typed parts it is given', () => {
    const typed = reduceAgentEvents<Parts>(undefined, { type: 'run.start', seq: 1, runId: 'r', model: 'm' });
    expectTypeOf(typed).toEqualTypeOf<AgentUIState<Parts>>();
    expectTypeOf(reduceAgentEvents(typed, { type: 'run.start', seq: 2, runId: 'r', model: 'm' })).toEqualTypeOf<AgentUIState<Parts>>();
  });

  it('the default state is untyped and readonly', () => {
    const state = reduceAgentEvents(undefined, { type: 'run.start', seq: 1, runId: 'r', model: 'm' });
    expectTypeOf(state.messages).toEqualTypeOf<readonly UIMessage[]>();
    // @ts-expect-error the state is immutable
    state.status = 'idle';
    // @ts-expect-error messages are a readonly array
    state.messages.push({ id: 'x', role: 'user', parts: [] });
  });
});
