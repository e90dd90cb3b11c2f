// The built-in tool the agent loop itself uses (`askQuestion: true`). The other built-in tools
// (http, date and time, todo) are in @lousho/tools.
export { askQuestionTool, QUESTION_NOT_ANSWERED, QuestionNotAnsweredError } from './ask-question.js';
export type { AskQuestionArgs, AskQuestionOptions, AskQuestionTool } from './ask-question.js';
