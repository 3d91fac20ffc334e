/**
 * One full garbage collection, asked for when the service has started (and when its start-up
 * ingest has ended). Start-up leaves garbage behind (file contents, transpiled sources, the
 * GraphQL schemas' building, PGlite's bundle) that a quiet process does not collect for a long
 * time, and it stays resident meanwhile: ~145 MiB on an empty index (docs/SCALING.md, "Memory of one process").
 * Goes through the in-process inspector: no flag, no port opened; nothing happens in a Node
 * built without an inspector.
 */
export async function collectGarbage(): Promise<boolean> {
  if (!process.features.inspector) return false;
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
    return true;
  } finally {
    session.disconnect();
  }
}
