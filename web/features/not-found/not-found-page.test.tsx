import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderWithRouter } from '../../test/render-with-router'
import { NotFoundPage } from './not-found-page'

describe('NotFoundPage', () => {
  it("is shown for an unknown path and links back to '/'", async () => {
    const { router } = renderWithRouter({
      routes: [
        { path: '/', element: <p>Landing</p> },
        { path: '*', element: <NotFoundPage /> },
      ],
      initialPath: '/no/such/page',
    })

    expect(screen.getByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument()
    const home = screen.getByRole('link', { name: 'Return to Home' })
    expect(home).toHaveAttribute('href', '/')

    await userEvent.click(home)
    expect(router.state.location.pathname).toBe('/')
    expect(screen.getByText('Landing')).toBeInTheDocument()
  })
})
