import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { ColumnDef } from '@tanstack/react-table'
import { DataTable } from '../../components/data-table/data-table'
import type { UsageDay } from './api'
import { USAGE_COLUMNS } from './usage-series'

const HEIGHT = 256

/** The figures' columns: the day (each row's header), then one per series. */
const FIGURE_COLUMNS: ColumnDef<UsageDay>[] = [
  { header: 'Date', accessorKey: 'day', meta: { rowHeader: true } },
  ...USAGE_COLUMNS.map((c): ColumnDef<UsageDay> => ({
    header: c.label,
    id: c.key,
    accessorFn: (d) => d[c.key],
  })),
]

/**
 * The usage series as a uPlot time-series chart (one line per column of USAGE_COLUMNS, days on
 * the x axis), with the same figures in a table under it for screen readers and keyboard users.
 */
export function UsageChart({ series }: { series: UsageDay[] }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const data: uPlot.AlignedData = [
      series.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
      ...USAGE_COLUMNS.map((c) => series.map((d) => d[c.key])),
    ]
    const chart = new uPlot(
      {
        width: el.clientWidth || 600,
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [
          { label: 'Day' },
          ...USAGE_COLUMNS.map((c) => ({ label: c.label, stroke: c.color, width: 2 })),
        ],
        axes: [{}, { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }],
      },
      data,
      el,
    )
    const resize = () => chart.setSize({ width: el.clientWidth || 600, height: HEIGHT })
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      chart.destroy()
    }
  }, [series])
  return (
    <figure className="space-y-3">
      <div ref={box} role="img" aria-label="Usage per day, chart" className="w-full" />
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">
          Show the figures as a table
        </summary>
        <div className="mt-2">
          {/* Shown only once the series loaded: the page says loading and failure for the card. */}
          <DataTable
            label="Usage per day"
            columns={FIGURE_COLUMNS}
            data={series}
            status="success"
            empty="No usage in this period."
            getRowId={(d) => d.day}
          />
        </div>
      </details>
    </figure>
  )
}
