/** Previous / next through a page of the API (0-based pages), with where the person is. */
export interface PageInfo { number: number; totalPages: number; totalElements: number }

export function Pager({ page, label, onPage }: { page: PageInfo; label: string; onPage: (n: number) => void }) {
  if (page.totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={page.number === 0} onClick={() => onPage(page.number - 1)}>Previous</button>
      <span>Page {page.number + 1} of {page.totalPages}</span>
      <button type="button" disabled={page.number + 1 >= page.totalPages} onClick={() => onPage(page.number + 1)}>Next</button>
    </nav>
  );
}
