/** The API's instants (UTC, with or without a zone) in the person's own time. */
export function when(at: string | null | undefined): string {
  if (!at) return '';
  const date = new Date(/Z$|[+-]\d\d:?\d\d$/.test(at) ? at : `${at}Z`);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}
