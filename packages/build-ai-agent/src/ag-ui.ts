// Serve an agent as an AG-UI endpoint: createAgUiHandler() and the mapping of our events to AG-UI's.
export * from '@lousho/ag-ui';
