/** The dashboard path of a document's view. */
export function documentPath(source: string, sourceId: string): string {
  return `/documents?${new URLSearchParams({ source, id: sourceId }).toString()}`;
}
