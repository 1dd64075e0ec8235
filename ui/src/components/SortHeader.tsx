/** A column header that sorts the list by its field: ascending first, then the other way; says which way it sorts. */
export function SortHeader({ field, label, sort, onSort }: { field: string; label: string; sort: string; onSort: (sort: string) => void }) {
  const [by, direction] = sort.split(',');
  const active = by === field;
  const next = active && direction === 'asc' ? 'desc' : 'asc';
  return (
    <th scope="col" aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" className="sort" onClick={() => onSort(`${field},${next}`)}>
        {label}<span aria-hidden="true">{active ? (direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}
