export { evaluateExpression, evaluateCondition } from './evaluate.js';
export { ExpressionError, SUPPORTED_EXPRESSION_FORMS } from './errors.js';
export { MAX_EXPRESSION_LENGTH, MAX_EXPRESSION_DEPTH } from './limits.js';
export { textOf, type ExpressionVariables } from './bind.js';
