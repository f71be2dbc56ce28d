import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import { renderWithRouter } from '../test/render-with-router'
import { PricingPage } from './pricing-page'

function plan(name: string) {
  return within(screen.getByRole('region', { name }))
}

describe('PricingPage', () => {
  it('offers exactly the three plans of the spec, with prices and features', () => {
    renderWithRouter({ element: <PricingPage />, path: '/pricing' })

    // The plans' names are <h2>s right under the page's <h1> (axe's heading-order, issue 30).
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Starter',
      'Professional',
      'Enterprise',
    ])

    expect(plan('Starter').getByText('$29')).toBeInTheDocument()
    expect(plan('Starter').getByText('/month')).toBeInTheDocument()
    for (const f of [
      '100 documents per month',
      '50 voice recordings per month',
      'Basic analysis',
      '5GB storage',
      'Email support',
    ])
      expect(plan('Starter').getByText(f)).toBeInTheDocument()

    expect(plan('Professional').getByText('$99')).toBeInTheDocument()
    expect(plan('Professional').getByText('Most Popular')).toBeInTheDocument()
    for (const f of [
      'Unlimited documents',
      'Unlimited voice recordings',
      'Advanced analysis',
      '100GB storage',
      'Priority support',
      'Custom templates',
      'Team collaboration',
    ])
      expect(plan('Professional').getByText(f)).toBeInTheDocument()

    expect(plan('Enterprise').getByText('Custom')).toBeInTheDocument()
    for (const f of [
      'Unlimited storage',
      'Dedicated support',
      'Custom integrations',
      'Agreed support response times',
      'On-premise deployment',
      'Advanced security',
    ])
      expect(plan('Enterprise').getByText(f)).toBeInTheDocument()
    expect(screen.getAllByText('Most Popular')).toHaveLength(1)
  })

  it("sends every plan's button to /auth: 'Get Started' twice, 'Contact Sales' for Enterprise", () => {
    renderWithRouter({ element: <PricingPage />, path: '/pricing' })

    expect(plan('Starter').getByRole('link', { name: 'Get Started' })).toHaveAttribute(
      'href',
      '/auth',
    )
    expect(plan('Professional').getByRole('link', { name: 'Get Started' })).toHaveAttribute(
      'href',
      '/auth',
    )
    expect(plan('Enterprise').getByRole('link', { name: 'Contact Sales' })).toHaveAttribute(
      'href',
      '/auth',
    )
  })

  it('promises no hosted service terms (uptime, SLA, hosting by us)', () => {
    const { container } = renderWithRouter({ element: <PricingPage />, path: '/pricing' })
    expect(container.textContent).not.toMatch(/\bSLA\b|uptime|we host/i)
  })
})
