import { ERROR_CODES, type SkippedMcpTool } from '@lousho/core';
import { describe, expect, it } from 'vitest';
import { toolsFromList } from '../src/load-tools.js';
import { recordingLogger } from './helpers.js';

const caller = { request: (() => Promise.reject(new Error('not called'))) as never };
const tool = (name: string, description = `Tool ${name}`) => ({ name, description, inputSchema: { type: 'object' } });

describe('bounds on what a server lists', () => {
  it('a server listing 50,000 tools gets its first 1,000 loaded (maxTools) and one warning; the rest are skipped with a code', () => {
    const logger = recordingLogger();
    const skipped: SkippedMcpTool[] = [];
    const list = Array.from({ length: 50_000 }, (_, i) => tool(`t${i}`));
    const tools = toolsFromList(caller, 'many', list, { logger, onSkip: (skip) => skipped.push(skip) });
    expect(Object.keys(tools)).toHaveLength(1000);
    expect(tools.many__t999).toBeDefined();
    expect(tools.many__t1000).toBeUndefined();
    expect(logger.lines).toEqual(["MCP server 'many' lists more than 1000 tools (maxTools); only the first 1000 are loaded."]);
    expect(skipped).toHaveLength(49_000);
    expect(skipped[0]).toEqual({ name: 't1000', server: 'many', code: ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, reason: 'the server lists more than 1000 tools (maxTools).' });
    expect(Object.keys(toolsFromList(caller, 'many', list.slice(0, 10), { maxTools: 3 }))).toEqual(['many__t0', 'many__t1', 'many__t2']);
  });

  it('a 2 MB description is not offered to a model: that tool is skipped (maxDescriptionLength, default 10,000 characters)', () => {
    const skipped: SkippedMcpTool[] = [];
    const tools = toolsFromList(caller, 'srv', [tool('huge', 'd'.repeat(2_000_000)), tool('edge', 'd'.repeat(10_000)), tool('fine')], { onSkip: (skip) => skipped.push(skip) });
    expect(Object.keys(tools)).toEqual(['srv__edge', 'srv__fine']);
    expect(skipped).toEqual([{ name: 'huge', server: 'srv', code: ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, reason: 'its description is 2000000 characters; at most 10000 (maxDescriptionLength) is offered to a model.' }]);
    expect(Object.keys(toolsFromList(caller, 'srv', [tool('edge', 'd'.repeat(10_000))], { maxDescriptionLength: 100 }))).toEqual([]);
  });

  it('bounds that are not positive integers are config errors, never ignored', () => {
    expect(() => toolsFromList(caller, 'srv', [], { maxTools: 0 })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG, message: expect.stringContaining('maxTools') }));
    expect(() => toolsFromList(caller, 'srv', [], { maxDescriptionLength: Number.NaN })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG }));
  });
});
