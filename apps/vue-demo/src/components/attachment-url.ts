import type { InjectionKey } from 'vue';
import type { AttachmentPart } from '@lousho/build-ai-agent';

/** Where the transcript finds an attachment's bytes (`attachmentUrl` with the chat's source and session). */
export const ATTACHMENT_URL: InjectionKey<(part: AttachmentPart) => string | undefined> = Symbol('attachment-url');
