/** Previous / next through a page of the API (0-based pages), with where the person is. */
export interface PageInfo { number: number; totalPages: number; totalElements: number }

/** `links`: the page's own; without a `last` the API counted only so far, and the page count is a lower bound. */
export function Pager({ page, label, onPage, links }: { page: PageInfo; label: string; onPage: (n: number) => void; links?: Record<string, unknown> }) {
  const more = links !== undefined && 'next' in links && !('last' in links);
  if (page.totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={page.number === 0} onClick={() => onPage(page.number - 1)}>Previous</button>
      <span>Page {page.number + 1} of {page.totalPages}{more ? ' or more' : ''}</span>
      <button type="button" disabled={page.number + 1 >= page.totalPages && !more} onClick={() => onPage(page.number + 1)}>Next</button>
    </nav>
  );
}
