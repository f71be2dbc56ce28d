import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import { renderWithRouter } from '../test/render-with-router'
import { LandingPage } from './landing-page'

describe('LandingPage', () => {
  it('states only checkable facts in its strip: self-hosted, AGPL-3.0, offline, row-level security', () => {
    renderWithRouter({ element: <LandingPage />, path: '/' })
    const strip = screen.getByRole('heading', { name: 'Lexdesk in numbers' }).parentElement!
    const values = within(strip)
      .getAllByRole('definition')
      .map((d) => d.textContent)
    expect(values).toEqual(['Self-hosted', 'AGPL-3.0', 'Offline', 'Per firm'])
    expect(within(strip).getByText('Row-level security for each organization')).toBeInTheDocument()
  })

  it('claims no customer count, uptime, certification or hosted service terms anywhere', () => {
    const { container } = renderWithRouter({ element: <LandingPage />, path: '/' })
    expect(container.textContent).not.toMatch(/500\+|join .*law firms|99\.9|uptime|SOC 2|\bSLA\b/i)
  })
})
