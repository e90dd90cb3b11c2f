import { getContext, setContext } from 'svelte';
import type { Readable } from 'svelte/store';
import type { AttachmentPart } from '@lousho/build-ai-agent';

/** Where the transcript finds an attachment's bytes (`attachmentUrl` with the chat's source and session). */
export type AttachmentUrlOf = Readable<(part: AttachmentPart) => string | undefined>;

const KEY = Symbol('attachment-url');

export const setAttachmentUrl = (urlOf: AttachmentUrlOf): AttachmentUrlOf => setContext(KEY, urlOf);
export const getAttachmentUrl = (): AttachmentUrlOf | undefined => getContext<AttachmentUrlOf | undefined>(KEY);
