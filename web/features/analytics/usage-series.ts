/**
 * The columns of the usage series, shared by the chart, its table and the CSV so all three show
 * the same figures under the same names.
 */
import type { UsageDay } from './api'

export const USAGE_COLUMNS: {
  key: Exclude<keyof UsageDay, 'day'>
  label: string
  color: string
}[] = [
  { key: 'documentsAdded', label: 'Documents added', color: '#2563eb' },
  { key: 'documentsAnalysed', label: 'Documents analysed', color: '#16a34a' },
  { key: 'voiceRecordings', label: 'Voice recordings', color: '#d97706' },
  { key: 'activeUsers', label: 'Active users', color: '#9333ea' },
]

/**
 * The series as CSV (RFC 4180, CRLF line ends): a header `date` + the column labels, then one
 * line per day, oldest first. No cell needs quoting: dates and whole numbers only.
 */
export function usageCsv(series: UsageDay[]): string {
  const header = ['date', ...USAGE_COLUMNS.map((c) => c.label)].join(',')
  const lines = series.map((d) => [d.day, ...USAGE_COLUMNS.map((c) => d[c.key])].join(','))
  return [header, ...lines].join('\r\n') + '\r\n'
}
