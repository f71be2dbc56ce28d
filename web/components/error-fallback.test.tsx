import { describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { ErrorFallback } from './error-fallback'

function Broken(): never {
  throw new Error('render failed')
}

describe('ErrorFallback', () => {
  it('replaces a screen that throws while rendering, with ways out', async () => {
    // React reports the caught render error on console.error; that is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
    const router = createMemoryRouter([
      { path: '/', element: <Broken />, errorElement: <ErrorFallback /> },
    ])
    render(<RouterProvider router={router} />)
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Go to Dashboard' }))
    expect(assign).toHaveBeenCalledWith('/dashboard')
  })
})
