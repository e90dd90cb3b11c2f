export * from '@lousho/core';
// Flows: FlowBuilder, FlowExecutor, createFlowAgent and the safe expression language.
export * from '@lousho/flows';
