/** A catalog page's view in its URL: what is searched for, the sort and the page (0-based, as the API counts). */
import type { SearchSchemaInput } from '@tanstack/react-router';

export interface CatalogSearch {
  q?: string;
  sort: string;
  page: number;
}

/** As the URL may hold it: every part optional (a plain link to the catalog names none). */
export type CatalogSearchInput = Partial<CatalogSearch> & SearchSchemaInput;

const SORT = /^[A-Za-z_]+,(asc|desc)$/;

/** The URL's search, with what is not understood left at its default (a hand-edited URL is not an error). */
export const catalogSearch = (defaultField: string) => (input: CatalogSearchInput): CatalogSearch => {
  const raw = input as Record<string, unknown>;
  const page = Number(raw.page);
  const q = typeof raw.q === 'string' && raw.q.trim() !== '' ? raw.q.trim() : undefined;
  return {
    ...(q ? { q } : {}),
    sort: typeof raw.sort === 'string' && SORT.test(raw.sort) ? raw.sort : `${defaultField},asc`,
    page: Number.isInteger(page) && page >= 0 ? page : 0,
  };
};
