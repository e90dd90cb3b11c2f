// Serve an agent as an AG-UI endpoint (createAgUiHandler) or to the AI SDK's useChat (createAiSdkHandler), and the mappings of our events.
export * from '@lousho/ag-ui';
