import { describe, expect, it } from 'vitest';
import { askQuestionTool } from '../../../src/tools/builtin/ask-question.js';
import { toolSchemaToJSONSchema } from '../../../src/tools/schema.js';
import { callTool, expectToolError } from './helpers.js';

describe('ask_question', () => {
  it('is a question tool the run must pause on', () => {
    const tool = askQuestionTool();
    expect(tool.name).toBe('ask_question');
    expect(tool.needsApproval).toBe(true);
    expect(tool.approvalKind).toBe('question');
    expect(toolSchemaToJSONSchema(tool.inputSchema)).toMatchObject({
      type: 'object',
      required: ['question'],
      properties: { question: { type: 'string' }, options: { type: 'array' } },
    });
  });

  it('never answers by itself: executing it directly fails with a message pointing at approvals.answer()', async () => {
    const error = await expectToolError(askQuestionTool(), { question: 'Which branch?', options: ['main', 'dev'] });
    expect(error).toMatchObject({ error: 'QuestionNotAnsweredError', toolName: 'ask_question', kind: 'execution' });
    expect(error.message).toMatch(/approvals\.answer\(\{ id, answer \}\)/);
  });

  it('validates the question before anything else', async () => {
    const outcome = await callTool(askQuestionTool(), { question: '  ' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatchObject({ kind: 'validation', issues: [{ path: 'question' }] });
  });

  it('takes a custom description and display name', () => {
    const tool = askQuestionTool({ description: 'Ask before deleting anything.', displayName: 'Question' });
    expect(tool.description).toBe('Ask before deleting anything.');
    expect(tool.displayName).toBe('Question');
  });
});
