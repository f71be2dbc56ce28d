import type { ReviewCell } from './api'

const STATE_TEXT: Record<ReviewCell['state'], string> = {
  pending: 'Pending…',
  running: 'Answering…',
  answered: '',
  not_found: 'Not found',
  failed: 'Failed',
  unverified: 'Unverified',
}

/**
 * What a grid cell shows: the override's answer, else an answered cell's, as the server words it
 * (the cells API's `text`, the export's line), else its state.
 */
export function cellText(cell: ReviewCell | undefined): string {
  if (!cell) return ''
  if (cell.override) return cell.override.text ?? 'Not found'
  if (cell.state === 'answered' && cell.text !== null) return cell.text
  return STATE_TEXT[cell.state]
}

/**
 * A cell's state in words where its text does not already say it (the phone list's second
 * line): "Overridden" or "Answered", then "checked" when a lawyer marked it; '' otherwise.
 */
export function cellStateText(cell: ReviewCell | undefined): string {
  if (!cell) return ''
  const state = cell.override ? 'Overridden' : cell.state === 'answered' ? 'Answered' : ''
  if (!cell.verified) return state
  return state ? `${state}, checked` : 'Checked'
}
