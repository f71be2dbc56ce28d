import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { CardTitle } from './card'

describe('CardTitle', () => {
  it('is an <h2> by default, the rank right under a page’s <h1>', () => {
    render(<CardTitle>Buckets</CardTitle>)
    expect(screen.getByRole('heading', { name: 'Buckets', level: 2 })).toBeInTheDocument()
  })

  it('takes another rank for cards under a section heading or alone on a page', () => {
    render(
      <>
        <CardTitle level={3}>Voice recording</CardTitle>
        <CardTitle level={1}>Create your organization</CardTitle>
      </>,
    )
    expect(screen.getByRole('heading', { name: 'Voice recording', level: 3 })).toBeInTheDocument()
    expect(
      screen.getByRole('heading', { name: 'Create your organization', level: 1 }),
    ).toBeInTheDocument()
  })
})
