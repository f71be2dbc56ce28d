import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ActivityItem } from '../hooks/activity'
import { renderWithRouter } from '../test/render-with-router'
import { ActivityList } from './activity-list'

const NOW = new Date('2026-11-26T12:00:00Z')
const item = (values: Partial<ActivityItem>): ActivityItem => ({
  id: 1,
  kind: 'document.uploaded',
  appId: null,
  meta: {},
  createdAt: '2026-11-26T11:55:00Z',
  actor: { id: 'u1', name: 'Ana Pereira' },
  ...values,
})

describe('ActivityList', () => {
  it('says who did what and links to the object, in the scope’s organisation and app', () => {
    renderWithRouter({
      element: (
        <ActivityList
          now={NOW}
          scope={{ orgSlug: 'acme-law', appSlug: 'tax' }}
          items={[
            item({ id: 3, meta: { documentId: 'd-9', title: 'Lease of Unit 4' } }),
            item({ id: 2, kind: 'recording.uploaded', meta: { recordingId: 'r-1' } }),
            item({
              id: 1,
              kind: 'document.deleted',
              meta: { documentId: 'd-8', title: 'Old draft' },
              actor: null,
              createdAt: '2026-11-24T12:00:00Z',
            }),
          ]}
        />
      ),
    })
    const list = screen.getByRole('list', { name: 'Recent activity' })
    expect(
      within(list).getByRole('link', { name: 'Ana Pereira uploaded Lease of Unit 4' }),
    ).toHaveAttribute('href', '/dashboard/acme-law/documents?app=tax&document=d-9')
    expect(
      within(list).getByRole('link', { name: 'Ana Pereira recorded a voice note' }),
    ).toHaveAttribute('href', '/dashboard/acme-law/voice?app=tax')
    // What is gone has no link; the system acts as Lexdesk.
    expect(within(list).getByText('Lexdesk deleted Old draft').tagName).toBe('SPAN')
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('5 minutes ago')
  })

  it('names API keys and data management, linking to their screens', () => {
    renderWithRouter({
      element: (
        <ActivityList
          now={NOW}
          scope={{ orgSlug: 'acme-law', appSlug: null }}
          items={[
            item({ id: 3, kind: 'key.created', meta: { keyId: 'k-1', name: 'Intake form' } }),
            item({ id: 2, kind: 'key.revoked', meta: { keyId: 'k-1', name: 'Intake form' } }),
            item({ id: 1, kind: 'org.exported', meta: { jobId: 'j-1', sizeBytes: 10 } }),
          ]}
        />
      ),
    })
    const list = screen.getByRole('list', { name: 'Recent activity' })
    expect(
      within(list).getByRole('link', { name: 'Ana Pereira created the API key Intake form' }),
    ).toHaveAttribute('href', '/dashboard/acme-law/security')
    expect(
      within(list).getByRole('link', { name: 'Ana Pereira revoked the API key Intake form' }),
    ).toHaveAttribute('href', '/dashboard/acme-law/security')
    expect(
      within(list).getByRole('link', { name: 'Ana Pereira exported the organisation' }),
    ).toHaveAttribute('href', '/dashboard/acme-law/settings')
  })

  it('shows the whole action, wrapped, never cut off with an ellipsis', () => {
    const title =
      'Master Services Agreement between Acme Holdings Limited and Northwind Traders LLP'
    renderWithRouter({
      element: (
        <ActivityList
          now={NOW}
          scope={{ orgSlug: 'acme-law', appSlug: null }}
          items={[item({ meta: { documentId: 'd-9', title } })]}
        />
      ),
    })
    const line = screen.getByRole('link', { name: `Ana Pereira uploaded ${title}` })
    expect(line).not.toHaveClass('truncate')
    expect(line.className).toContain('[overflow-wrap:anywhere]')
  })

  it('says when there is no activity yet', () => {
    renderWithRouter({
      element: <ActivityList now={NOW} scope={{ orgSlug: 'a', appSlug: null }} items={[]} />,
    })
    expect(screen.getByText('No activity yet.')).toBeInTheDocument()
  })
})
