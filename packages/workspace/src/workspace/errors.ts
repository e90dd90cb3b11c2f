import { ERROR_CODES, SDKError, type ErrorCode } from '@lousho/core';

/** A workspace operation that cannot be done: the path leaves the root, the file is missing or unsuitable. */
export class WorkspaceError extends SDKError {
  /** The workspace path the error is about. */
  readonly path: string | undefined;
  constructor(code: ErrorCode, message: string, options: { path?: string; hint?: string; cause?: unknown } = {}) {
    // The message carries the hint too: as a tool result, the message is all the model reads.
    super(code, options.hint ? `${message} ${options.hint}` : message, { ...(options.hint ? { hint: options.hint } : {}), ...(options.cause !== undefined ? { cause: options.cause } : {}) });
    this.name = 'WorkspaceError';
    this.path = options.path;
  }
}

export function outsideRoot(path: string, why = 'it leaves the workspace root'): WorkspaceError {
  return new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_PATH_OUTSIDE, `The path '${path}' is refused: ${why}.`, {
    path,
    hint: 'Use a path inside the workspace, relative to its root (e.g. src/index.ts).',
  });
}

export function notFound(path: string, what = 'No file or directory'): WorkspaceError {
  return new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_NOT_FOUND, `${what} at '${path}'.`, { path, hint: 'List the directory (list_dir) or search (glob) to find the right path.' });
}

export function unsuitable(path: string, message: string, hint?: string): WorkspaceError {
  return new WorkspaceError(ERROR_CODES.LOUSHO_WORKSPACE_FILE_UNSUITABLE, message, { path, ...(hint ? { hint } : {}) });
}
