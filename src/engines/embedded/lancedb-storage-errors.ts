/**
 * Which errors of LanceDB's readers mean "a file of the index is damaged" rather than "the
 * query is wrong" (a bug: 500). Found by cutting, deleting and overwriting the data files of a
 * running engine's tables (LanceDB 0.39): every such error is a plain `Error` with the napi code
 * `GenericFailure` and one of these messages:
 * - a file cut short: `lance error: LanceError(IO): Generic LocalFileSystem error: failed to fill whole buffer`;
 * - a file deleted: `lance error: Not found: <path>`;
 * - a file overwritten: its decoders panic (`task N panicked with message "…"`, or napi's
 *   `Panic in async function` when the panic ends the call itself);
 * - and LanceError's own `Encountered corrupt file` and operating-system read errors.
 * A wrong filter or a missing column answers `Invalid user input`, `Schema error` or a
 * DataFusion planning error instead, none of which is matched here.
 */
const STORAGE_MESSAGES = [
  /LanceError\(IO\)/,
  /lance error: Not found:/,
  /Encountered corrupt file/,
  /\bpanicked\b/,
  /^Panic in async function/,
  /No such file or directory|Input\/output error|\bEIO\b/,
];

/** Whether `error` (or one of its causes) is a storage error of the embedded index. */
export function isLanceStorageError(error: unknown): boolean {
  // Not `instanceof Error`: the native addon's errors belong to another realm under jest's VM.
  for (let e = error as { message?: unknown; cause?: unknown } | null, depth = 0; e && typeof e === 'object' && depth < 5; e = e.cause as typeof e, depth++) {
    const message = typeof e.message === 'string' ? e.message : '';
    if (STORAGE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}
