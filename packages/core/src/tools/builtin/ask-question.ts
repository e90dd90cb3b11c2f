import { z } from 'zod';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { defineTool } from '../define-tool.js';
import type { DefinedTool } from '@lousho/protocol';

/** What the model sends to `ask_question`: the question, and optional answers to choose from. */
export interface AskQuestionArgs {
  question: string;
  options?: string[] | undefined;
}

/** Options of `askQuestionTool()`. */
export interface AskQuestionOptions {
  /** Replaces the description the model reads (e.g. to say when asking is welcome). */
  description?: string;
  /** Label for UIs. Default `Ask the user`. */
  displayName?: string;
}

/** `ask_question`: the user's answer (the text given to `approvals.answer()`) becomes the result. */
export type AskQuestionTool = DefinedTool<'ask_question', AskQuestionArgs, string>;

/** The code of the error an `ask_question` call resumed without an answer gets (`ERROR_CODES.LOUSHO_QUESTION_NOT_ANSWERED`). */
export const QUESTION_NOT_ANSWERED = ERROR_CODES.LOUSHO_QUESTION_NOT_ANSWERED;

/** `ask_question` was executed directly instead of pausing the run for the user's answer. */
export class QuestionNotAnsweredError extends SDKError {
  constructor() {
    super(
      QUESTION_NOT_ANSWERED,
      "ask_question cannot answer itself: the run must pause on this call and the user's reply is given with agent.approvals.answer({ id, answer }).",
      {
        hint: "Run the tool through the agent loop (it pauses on approvalKind 'question' tools), or enable it with createAgent({ askQuestion: true }).",
      },
    );
    this.name = 'QuestionNotAnsweredError';
  }
}

/**
 * A tool through which the agent asks the user something. The run pauses on every call (it is a
 * `'question'` approval); `agent.approvals.answer({ id, answer })` resumes it with the answer as
 * the tool's result. `execute` only throws: answering is the loop's job.
 */
export function askQuestionTool(options: AskQuestionOptions = {}): AskQuestionTool {
  return defineTool({
    name: 'ask_question',
    displayName: options.displayName ?? 'Ask the user',
    description:
      options.description ??
      'Ask the user a question and wait for the reply. Use it when you need information or a decision only the user can give; offer `options` when there are a few likely answers.',
    input: z.object({
      question: z.string().trim().min(1, 'question must not be empty').describe('The question, addressed to the user.'),
      options: z.array(z.string().trim().min(1)).max(20).optional().describe('Suggested answers the user can pick from.'),
    }),
    needsApproval: true,
    approvalKind: 'question',
    execute: (): string => {
      throw new QuestionNotAnsweredError();
    },
  });
}
