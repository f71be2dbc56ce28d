import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { UsageDay } from './api'
import { USAGE_COLUMNS } from './usage-series'

const HEIGHT = 256

/**
 * The usage series as a uPlot time-series chart (one line per column of USAGE_COLUMNS, days on
 * the x axis), with the same figures in a table under it for screen readers and keyboard users.
 * The table is hand-written, not a DataTable: it has no loading, failure or empty state of its own
 * (it shows once the series loaded), and TanStack Table's 13.5 KiB gzip would put this route, which
 * carries uPlot, over its 250 KiB budget (decision 0127).
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
        <table className="mt-2 w-full text-left">
          <caption className="sr-only">Usage per day</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              {USAGE_COLUMNS.map((c) => (
                <th key={c.key} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {series.map((d) => (
              <tr key={d.day}>
                <th scope="row" className="font-normal">
                  {d.day}
                </th>
                {USAGE_COLUMNS.map((c) => (
                  <td key={c.key}>{d[c.key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
