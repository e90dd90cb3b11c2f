// docs/flows.md, "Flow expressions" (verbatim).
import { evaluateExpression, ExpressionError } from '@lousho/build-ai-agent';

evaluateExpression("'{{classify}}' === 'refund' && score >= 90", { classify: 'refund', score: 92 }); // true
try {
  evaluateExpression('user.constructor', { user: {} });
} catch (error) {
  if (error instanceof ExpressionError) console.log(error.position); // 5
}
