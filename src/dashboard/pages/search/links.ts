/** The dashboard path of a document's view; `pinpoint` (`Abs. 1`, `(1)(c)`) asks the page to highlight that part. */
export function documentPath(source: string, sourceId: string, pinpoint?: string | null): string {
  const params = new URLSearchParams({ source, id: sourceId });
  if (pinpoint?.trim()) params.set('pinpoint', pinpoint.trim());
  return `/documents?${params.toString()}`;
}
