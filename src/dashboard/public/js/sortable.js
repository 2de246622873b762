// A table whose columns sort when their header is pressed (a button in each header, the
// column's state in aria-sort), rows as cards on narrow screens like every table here.
import { h } from './dom.js';
import { tableRow } from './ui.js';

/**
 * columns: [{ key, label, num?, value(row) → string|number, cell(row) }]; sort: { key, dir }
 * (changed in place when a header is pressed, then `onSort()` is called).
 */
export function sortableTable(columns, rows, sort, { empty = 'Nothing here yet.', caption, onSort } = {}) {
  if (rows.length === 0) return h('p.muted', empty);
  const column = columns.find((c) => c.key === sort.key) ?? columns[0];
  const sign = sort.dir === 'desc' ? -1 : 1;
  const sorted = [...rows].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true }));
  });
  const header = (c) => {
    const active = c.key === column.key;
    const button = h(
      'button.sort',
      {
        type: 'button',
        'data-sort-key': c.key,
        onclick: () => {
          sort.dir = active && sort.dir === 'asc' ? 'desc' : active ? 'asc' : c.num ? 'desc' : 'asc';
          sort.key = c.key;
          onSort?.();
        },
      },
      c.label,
    );
    return h(
      'th',
      { scope: 'col', class: c.num ? 'num' : undefined, 'aria-sort': active ? (sort.dir === 'desc' ? 'descending' : 'ascending') : 'none' },
      button,
    );
  };
  return h(
    'div.table-wrap',
    h(
      'table.cards',
      caption ? h('caption.visually-hidden', `${caption}, sorted by ${column.label} ${sort.dir === 'desc' ? 'descending' : 'ascending'}`) : null,
      h('thead', h('tr', columns.map(header))),
      h(
        'tbody',
        sorted.map((r) => tableRow(columns, r)),
      ),
    ),
  );
}
