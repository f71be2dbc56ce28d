import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ColumnDef, RowSelectionState, SortingState } from '@tanstack/react-table'
import { DataTable } from './data-table'

interface Fruit {
  id: string
  name: string
}

const columns: ColumnDef<Fruit, string>[] = [
  { accessorKey: 'name', header: 'Name', enableSorting: true },
  { id: 'id', accessorFn: (row) => row.id, header: 'ID', enableSorting: false },
]

const fruits: Fruit[] = [
  { id: 'a', name: 'Apple' },
  { id: 'b', name: 'Banana' },
]

const base = { columns, empty: 'No fruit yet.', getRowId: (row: Fruit) => row.id }

describe('DataTable', () => {
  it('says Loading… (busy) while its first load runs, not its empty sentence', () => {
    render(<DataTable {...base} data={undefined} status="pending" />)
    const cell = screen.getByText('Loading…')
    expect(cell).toHaveAttribute('aria-busy', 'true')
    expect(screen.queryByText('No fruit yet.')).toBeNull()
  })

  it('shows a failure as an alert with its detail, never as the empty sentence', () => {
    render(
      <DataTable {...base} data={undefined} status="error" error={new Error('Database is down')} />,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('Database is down')
    expect(screen.queryByText('No fruit yet.')).toBeNull()
    expect(screen.queryByText('Loading…')).toBeNull()
  })

  it('marks the row its rowAttributes name (aria-current and a class), and no other', () => {
    render(
      <DataTable
        {...base}
        data={fruits}
        status="success"
        rowAttributes={(fruit) =>
          fruit.id === 'b' ? { 'aria-current': 'true', className: 'bg-accent' } : {}
        }
      />,
    )
    const banana = screen.getByText('Banana').closest('tr')
    expect(banana).toHaveAttribute('aria-current', 'true')
    expect(banana).toHaveClass('bg-accent')
    expect(screen.getByText('Apple').closest('tr')).not.toHaveAttribute('aria-current')
  })

  it('says its empty sentence once it loaded none', () => {
    render(<DataTable {...base} data={[]} status="success" />)
    expect(screen.getByText('No fruit yet.')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('says loading and empty as a sentence in place of the table when asked, its failure prefixed', () => {
    const { rerender } = render(
      <DataTable
        {...base}
        placeholder="sentence"
        loading="Loading fruit…"
        data={undefined}
        status="pending"
      />,
    )
    expect(screen.getByText('Loading fruit…')).toHaveAttribute('aria-busy', 'true')
    expect(screen.queryByRole('table')).toBeNull()
    rerender(<DataTable {...base} placeholder="sentence" data={[]} status="success" />)
    expect(screen.getByText('No fruit yet.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).toBeNull()
    rerender(
      <DataTable
        {...base}
        placeholder="sentence"
        failurePrefix="The fruit could not be loaded: "
        data={undefined}
        status="error"
        error={new Error('Orchard closed')}
      />,
    )
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The fruit could not be loaded: Orchard closed',
    )
    expect(screen.queryByText('No fruit yet.')).toBeNull()
    rerender(<DataTable {...base} placeholder="sentence" data={fruits} status="success" />)
    expect(screen.getAllByRole('row')).toHaveLength(3)
  })

  it('renders a row per item with its cells under the column headers', () => {
    render(<DataTable {...base} data={fruits} status="success" label="Fruit" />)
    const table = screen.getByRole('table', { name: 'Fruit' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'ID'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((row) => row.textContent)).toEqual(['Applea', 'Bananab'])
    expect(screen.queryByText('No fruit yet.')).toBeNull()
  })

  it("makes a column marked rowHeader its rows' headers, which name the rows", () => {
    const named: ColumnDef<Fruit, string>[] = [
      { accessorKey: 'name', header: 'Name', meta: { rowHeader: true } },
      { id: 'id', accessorFn: (row) => row.id, header: 'ID' },
    ]
    render(<DataTable {...base} columns={named} data={fruits} status="success" />)
    expect(screen.getByRole('rowheader', { name: 'Apple' })).toHaveAttribute('scope', 'row')
    const row = screen.getByRole('row', { name: /Apple/ })
    expect(within(row).getByRole('cell', { name: 'a' })).toBeInTheDocument()
    expect(within(row).queryByRole('cell', { name: 'Apple' })).toBeNull()
  })

  it('gives a column that sorts itself the aria-sort its meta says, and no table sort button', () => {
    const selfSorted: ColumnDef<Fruit, string>[] = [
      {
        accessorKey: 'name',
        header: () => <button type="button">Sort by name</button>,
        meta: { ariaSort: 'descending' },
      },
      { id: 'id', accessorFn: (row) => row.id, header: 'ID' },
    ]
    render(<DataTable {...base} columns={selfSorted} data={fruits} status="success" />)
    const [name, id] = screen.getAllByRole('columnheader')
    expect(name).toHaveAttribute('aria-sort', 'descending')
    expect(within(name as HTMLElement).getAllByRole('button')).toHaveLength(1)
    expect(id).not.toHaveAttribute('aria-sort')
  })

  it('asks for a sort from the keyboard and marks the sorted header with aria-sort', async () => {
    const asked: SortingState[] = []
    function Sorted() {
      const [sorting, setSorting] = useState<SortingState>([])
      return (
        <DataTable
          {...base}
          data={fruits}
          status="success"
          sorting={{
            state: sorting,
            onChange: (updater) =>
              setSorting((current) => {
                const next = typeof updater === 'function' ? updater(current) : updater
                asked.push(next)
                return next
              }),
          }}
        />
      )
    }
    const user = userEvent.setup()
    render(<Sorted />)
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ })
    expect(nameHeader).toHaveAttribute('aria-sort', 'none')
    // The unsortable column has no sort button and no aria-sort.
    expect(screen.getByRole('columnheader', { name: 'ID' })).not.toHaveAttribute('aria-sort')
    await user.tab()
    expect(within(nameHeader).getByRole('button')).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending')
    await user.keyboard(' ')
    expect(nameHeader).toHaveAttribute('aria-sort', 'descending')
    expect(asked).toEqual([[{ id: 'name', desc: false }], [{ id: 'name', desc: true }]])
    // The server sorts: the table shows the rows in the order given.
    expect(screen.getAllByRole('row')[1]).toHaveTextContent('Apple')
  })

  it('selects rows one by one and all at once, the header checkbox mixed between', async () => {
    let selected: RowSelectionState = {}
    function Selectable() {
      const [selection, setSelection] = useState<RowSelectionState>({})
      selected = selection
      return (
        <DataTable
          {...base}
          data={fruits}
          status="success"
          selection={{ state: selection, onChange: setSelection, label: (row) => row.name }}
        />
      )
    }
    const user = userEvent.setup()
    render(<Selectable />)
    const all = screen.getByRole('checkbox', { name: 'Select all rows' })
    await user.click(screen.getByRole('checkbox', { name: 'Select Banana' }))
    expect(selected).toEqual({ b: true })
    expect(all).not.toBeChecked()
    expect((all as HTMLInputElement).indeterminate).toBe(true)
    expect(screen.getAllByRole('row')[2]).toHaveAttribute('aria-selected', 'true')
    all.focus()
    await user.keyboard(' ')
    expect(selected).toEqual({ a: true, b: true })
    expect(all).toBeChecked()
    await user.keyboard(' ')
    expect(selected).toEqual({})
  })

  it('offers Load more while the server has more, disabled while the next page loads', async () => {
    let asked = 0
    const user = userEvent.setup()
    const { rerender } = render(
      <DataTable
        {...base}
        data={fruits}
        status="success"
        loadMore={{ hasMore: true, pending: false, onLoadMore: () => (asked += 1) }}
      />,
    )
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(asked).toBe(1)
    rerender(
      <DataTable
        {...base}
        data={fruits}
        status="success"
        loadMore={{ hasMore: true, pending: true, onLoadMore: () => (asked += 1) }}
      />,
    )
    expect(screen.getByRole('button', { name: 'Load more' })).toBeDisabled()
    rerender(
      <DataTable
        {...base}
        data={fruits}
        status="success"
        loadMore={{ hasMore: false, pending: false, onLoadMore: () => (asked += 1) }}
      />,
    )
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
  })
})
