import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { stubFetch } from '../../test/stub-fetch'
import { SettingsPage } from './settings-page'

describe('SettingsPage', () => {
  it.each(['admin', 'member'] as const)(
    'tells an %s that data management is for owners and sends none of the owner-only requests',
    async (role) => {
      const { requests } = stubFetch({})
      renderWithRouter({ element: inOrgScope(<SettingsPage ownedOrgs={[]} />, {}, role) })
      expect(
        await screen.findByText(/Only the organization’s owners export, import or clone its data/),
      ).toBeInTheDocument()
      expect(screen.queryByRole('button', { name: /Export/ })).toBeNull()
      expect(screen.queryByRole('button', { name: /Import/ })).toBeNull()
      expect(screen.queryByRole('button', { name: /Clone/ })).toBeNull()
      expect(requests).toEqual([])
    },
  )
})
