/**
 * A catalog: every item of a kind the person may see, searched ("name contains"), sorted and paged by the API, a
 * page of 20 whatever the tenant's size. Each catalog page gives its query, its columns and its words.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { countText } from '../format';
import { Pager, type PageInfo } from './Pager';
import { SortHeader } from './SortHeader';
import { Empty, Failed, Loading } from './states';
import type { CatalogSearch } from './catalog-search';

export interface Column<T> { label: string; sortField?: string; cell: (row: T) => ReactNode }

export interface CatalogProps<T extends { uid: string }> {
  title: string;
  /** The plural for messages ("streams"). */
  noun: string;
  search: CatalogSearch;
  onSearch: (change: Partial<CatalogSearch>) => void;
  result: UseQueryResult<{ page: PageInfo; _links?: Record<string, unknown> }, Error>;
  rows: T[] | undefined;
  columns: Column<T>[];
  /** Without a name search the API offers for this kind, no search box. */
  searchable?: boolean;
  /** Beside the title: "New stream", for those who may create one. */
  actions?: ReactNode;
  /** A catalog that is part of a page is titled by a second-level heading, whose id may name its section. */
  level?: 1 | 2;
  titleId?: string;
  /** On a narrow screen, where the rows stack, each cell says its column's name. */
  labelled?: boolean;
}

export function Catalog<T extends { uid: string }>({ title, noun, search, onSearch, result, rows, columns, searchable = true, actions, level = 1, titleId, labelled = false }: CatalogProps<T>) {
  const Title = level === 1 ? 'h1' : 'h2';
  const [text, setText] = useState(search.q ?? '');
  useEffect(() => setText(search.q ?? ''), [search.q]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ q: text.trim() || undefined, page: 0 });
  };
  const searchId = `${noun}-search`;
  return (
    <>
      <div className="title-row"><Title id={titleId}>{title}</Title>{actions}</div>
      {searchable && (
        <form role="search" className="search" onSubmit={submit} aria-label={`Search ${noun}`}>
          <label htmlFor={searchId}>Name contains</label>
          <input id={searchId} type="search" value={text} onChange={(e) => setText(e.target.value)} />
          <button type="submit">Search</button>
        </form>
      )}
      {result.isPending ? <Loading what={noun} /> : result.isError ? <Failed error={result.error} retry={() => void result.refetch()} />
        : !rows || rows.length === 0 ? <Empty>{search.q ? `No ${noun} you may see have "${search.q}" in their name.` : `No ${noun} you may see yet.`}</Empty> : (
          <table className={labelled ? 'list labelled' : 'list'}>
            <caption className="visually-hidden">{title}, {countText(result.data.page, result.data._links)} in all</caption>
            <thead>
              <tr>
                {columns.map((c) => (c.sortField
                  ? <SortHeader key={c.label} field={c.sortField} label={c.label} sort={search.sort} onSort={(sort) => onSearch({ sort, page: 0 })} />
                  : <th key={c.label} scope="col">{c.label}</th>))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => <tr key={row.uid}>{columns.map((c) => <td key={c.label} data-label={labelled ? c.label : undefined}>{c.cell(row)}</td>)}</tr>)}
            </tbody>
          </table>
        )}
      {result.data && <Pager page={result.data.page} links={result.data._links} label={title} onPage={(page) => onSearch({ page })} />}
    </>
  );
}
