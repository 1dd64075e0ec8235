/** The API's instants (UTC, with or without a zone) in the person's own time. */
export function when(at: string | null | undefined): string {
  if (!at) return '';
  const date = new Date(/Z$|[+-]\d\d:?\d\d$/.test(at) ? at : `${at}Z`);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}

/**
 * A page's total as the API counted it: past a bound it counts no further (its `totalElements` is then a lower
 * bound, and the page has a `next` link but no `last`). Such a total shows as "1,000+", never as an exact number.
 */
export function countText(page: { totalElements: number }, links: Record<string, unknown> | undefined): string {
  const capped = links !== undefined && 'next' in links && !('last' in links);
  if (!capped) return page.totalElements.toLocaleString('en');
  const step = 10 ** Math.max(0, String(page.totalElements).length - 2);
  return `${(Math.floor(page.totalElements / step) * step).toLocaleString('en')}+`;
}
