// The view (chat or triage flow) and its URL, shared by the three demos.
export { urlForView, VIEW_LABELS, viewOf, type View } from '@lousho/demo-agent';
