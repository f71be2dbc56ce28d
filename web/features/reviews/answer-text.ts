import type { ReviewAnswer, ReviewCell } from './api'

/**
 * An answer as one short line, as the export writes it (server/features/reviews/export-review.ts):
 * Yes/No, ISO date, "6 months", "1500000 USD", names and items joined with "; ".
 */
export function answerText(answer: ReviewAnswer): string {
  switch (answer.type) {
    case 'yes_no':
      return answer.value ? 'Yes' : answer.unlessConsent ? 'No, not without consent' : 'No'
    case 'date':
      return answer.value
    case 'duration':
      return `${answer.months} months`
    case 'money':
      return `${answer.amount} ${answer.currency}`
    case 'party':
      return answer.names.join('; ')
    case 'text':
      return answer.value
    case 'list':
      return answer.items.join('; ')
  }
}

const STATE_TEXT: Record<ReviewCell['state'], string> = {
  pending: 'Pending…',
  running: 'Answering…',
  answered: '',
  not_found: 'Not found',
  failed: 'Failed',
  unverified: 'Unverified',
}

/** What a grid cell shows: the override, else an answered cell's answer, else its state. */
export function cellText(cell: ReviewCell | undefined): string {
  if (!cell) return ''
  if (cell.override) return cell.override.answer ? answerText(cell.override.answer) : 'Not found'
  if (cell.state === 'answered' && cell.answer) return answerText(cell.answer)
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
