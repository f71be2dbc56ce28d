import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import type { Usage, UsageDay } from './api'
import { AnalyticsPage } from './analytics-page'
import { usageCsv } from './usage-series'

// uPlot reads the device pixel ratio through matchMedia when it loads; jsdom has none.
vi.hoisted(() => {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }) as unknown as MediaQueryList
  // …nor Path2D, which uPlot builds its lines with.
  globalThis.Path2D ??= class {
    moveTo() {}
    lineTo() {}
    bezierCurveTo() {}
    rect() {}
    arc() {}
    closePath() {}
    addPath() {}
  } as unknown as typeof Path2D
})

const BASE = '/api/v1/orgs/org-1/analytics'

const day = (d: string, values: Partial<UsageDay> = {}): UsageDay => ({
  day: d,
  documentsAdded: 0,
  documentsAnalysed: 0,
  voiceRecordings: 0,
  activeUsers: 0,
  ...values,
})

const usageOf = (days: number, series: UsageDay[]): Usage => ({
  days,
  from: series[0]!.day,
  to: series.at(-1)!.day,
  totals: {
    documentsAdded: series.reduce((n, d) => n + d.documentsAdded, 0),
    documentsAnalysed: series.reduce((n, d) => n + d.documentsAnalysed, 0),
    voiceRecordings: series.reduce((n, d) => n + d.voiceRecordings, 0),
    activeUsers: 2,
    jobsSucceeded: 4,
    avgProcessingMs: 1800,
  },
  series,
})

// jsdom has no canvas: a 2D context whose drawing calls do nothing, so uPlot can build its DOM.
beforeEach(() => {
  const context = new Proxy(
    {},
    {
      get: (_t, key) =>
        key === 'measureText' ? () => ({ width: 10 }) : key === 'canvas' ? undefined : () => {},
      set: () => true,
    },
  )
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
    context as unknown as CanvasRenderingContext2D,
  )
})
afterEach(() => vi.restoreAllMocks())

describe('AnalyticsPage', () => {
  it('shows the last 30 days by default, draws the series and lists it in a table', async () => {
    const { requests } = stubFetch({
      [`GET ${BASE}/usage`]: () =>
        jsonResponse(
          usageOf(30, [
            day('2026-11-25', { documentsAnalysed: 3, activeUsers: 1 }),
            day('2026-11-26', { documentsAdded: 1, voiceRecordings: 2, activeUsers: 2 }),
          ]),
        ),
      [`GET ${BASE}/activity`]: () => jsonResponse({ items: [] }),
    })
    const { container } = renderWithRouter({ element: inOrgScope(<AnalyticsPage />) })

    expect(await screen.findByText('1.8 s')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    const usageUrl = new URL(requests.find((r) => r.url.includes('/usage'))!.url)
    expect(usageUrl.searchParams.get('days')).toBe('30')
    // uPlot built its chart: a canvas and a legend naming every series.
    expect(container.querySelector('.uplot canvas')).not.toBeNull()
    const legend = container.querySelector('.u-legend') as HTMLElement
    for (const label of ['Documents added', 'Documents analysed', 'Voice recordings'])
      expect(legend).toHaveTextContent(label)
    const row = screen.getByRole('row', { name: /2026-11-26/ })
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1', '0', '2', '2'])
    expect(screen.queryByText(/sample data/i)).toBeNull()
    expect(screen.queryByText(/coming soon/i)).toBeNull()
  })

  it('asks for another period when one is chosen', async () => {
    const { requests } = stubFetch({
      [`GET ${BASE}/usage`]: (req) => {
        const days = Number(new URL(req.url).searchParams.get('days'))
        return jsonResponse(usageOf(days, [day('2026-11-26', { documentsAnalysed: days })]))
      },
      [`GET ${BASE}/activity`]: () => jsonResponse({ items: [] }),
    })
    renderWithRouter({ element: inOrgScope(<AnalyticsPage />) })
    await screen.findByText('1.8 s')
    await userEvent.click(screen.getByRole('button', { name: 'Last 7 days' }))
    expect(await screen.findByRole('row', { name: /2026-11-26 0 7/ })).toBeInTheDocument()
    expect(requests.map((r) => new URL(r.url).searchParams.get('days'))).toContain('7')
  })

  it('says why the figures and the activity failed to load, and stops saying Loading', async () => {
    stubFetch({
      [`GET ${BASE}/usage`]: () => problemResponse(503, 'The database is restarting'),
      [`GET ${BASE}/activity`]: () => problemResponse(403, 'Your role may not read the activity'),
    })
    renderWithRouter({ element: inOrgScope(<AnalyticsPage />) })
    expect(
      await screen.findByText('The figures could not be loaded: The database is restarting'),
    ).toHaveAttribute('role', 'alert')
    expect(
      await screen.findByText(
        'The activity could not be loaded: Your role may not read the activity',
      ),
    ).toHaveAttribute('role', 'alert')
    expect(screen.queryByText('Loading…')).toBeNull()
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled()
  })

  it('downloads the series it shows as CSV', async () => {
    const series = [
      day('2026-11-25', { documentsAnalysed: 3 }),
      day('2026-11-26', { documentsAdded: 1 }),
    ]
    stubFetch({
      [`GET ${BASE}/usage`]: () => jsonResponse(usageOf(30, series)),
      [`GET ${BASE}/activity`]: () => jsonResponse({ items: [] }),
    })
    const blobs: Blob[] = []
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob)
      return 'blob:usage'
    })
    URL.revokeObjectURL = vi.fn()
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    renderWithRouter({ element: inOrgScope(<AnalyticsPage />) })
    await userEvent.click(await screen.findByRole('button', { name: 'Download CSV' }))
    expect(click).toHaveBeenCalledOnce()
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(
      'lexdesk-usage-2026-11-25-2026-11-26.csv',
    )
    expect(await blobs[0]!.text()).toBe(
      'date,Documents added,Documents analysed,Voice recordings,Active users\r\n' +
        '2026-11-25,0,3,0,0\r\n' +
        '2026-11-26,1,0,0,0\r\n',
    )
  })
})

describe('usageCsv', () => {
  it('writes a header and one line per day, oldest first', () => {
    expect(usageCsv([day('2026-01-01', { activeUsers: 4 })])).toBe(
      'date,Documents added,Documents analysed,Voice recordings,Active users\r\n2026-01-01,0,0,0,4\r\n',
    )
  })
})
