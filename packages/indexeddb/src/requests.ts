// Promises over IndexedDB's event-based requests, and transactions that commit or abort as a whole.

/** The result of one request. */
export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * Runs `body` in one transaction over `stores` and resolves with its result once the transaction
 * has committed. `body` may only await requests of this transaction (anything else would let it
 * commit early). When `body` throws, the transaction is aborted, so nothing it wrote stays, and
 * the error is passed on as it was.
 */
export async function inTransaction<T>(db: IDBDatabase, stores: string[], mode: IDBTransactionMode, body: (tx: IDBTransaction) => Promise<T>): Promise<T> {
  const tx = db.transaction(stores, mode);
  const committed = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted.', 'AbortError'));
  });
  let result: T;
  try {
    result = await body(tx);
  } catch (error) {
    committed.catch(() => {});
    try {
      tx.abort();
    } catch {
      // Already finished (it failed on its own): nothing more to undo.
    }
    throw error;
  }
  await committed;
  return result;
}

/** Every key of one session in a store keyed `[sessionId, ...]`, or from `[sessionId, ...from]` on. */
export function sessionRange(sessionId: string, ...from: (string | number)[]): IDBKeyRange {
  // Arrays sort after every number and string, so `[id, ..., []]` is past any key of the session.
  return IDBKeyRange.bound([sessionId, ...from], [sessionId, ...from.slice(0, -1), []]);
}
