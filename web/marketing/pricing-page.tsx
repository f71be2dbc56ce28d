import { Link } from 'react-router'
import { CheckIcon } from 'lucide-react'
import { Badge } from '../components/ui/badge'
import { Button } from '../components/ui/button'
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../components/ui/card'
import { cn } from '../lib/utils'

interface Plan {
  name: string
  price: string
  period?: string
  description: string
  features: string[]
  cta: 'Get Started' | 'Contact Sales'
  popular?: boolean
}

const plans: Plan[] = [
  {
    name: 'Starter',
    price: '$29',
    period: '/month',
    description: 'For solo practitioners and small teams.',
    features: [
      '100 documents per month',
      '50 voice recordings per month',
      'Basic analysis',
      '5GB storage',
      'Email support',
    ],
    cta: 'Get Started',
  },
  {
    name: 'Professional',
    price: '$99',
    period: '/month',
    description: 'For growing firms that review every day.',
    features: [
      'Unlimited documents',
      'Unlimited voice recordings',
      'Advanced analysis',
      '100GB storage',
      'Priority support',
      'Custom templates',
      'Team collaboration',
    ],
    cta: 'Get Started',
    popular: true,
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    description: 'For large firms with specific requirements.',
    features: [
      'Unlimited storage',
      'Dedicated support',
      'Custom integrations',
      'Agreed support response times',
      'On-premise deployment',
      'Advanced security',
    ],
    cta: 'Contact Sales',
  },
]

/** Public pricing page (/pricing): Starter, Professional (Most Popular) and Enterprise. */
export function PricingPage() {
  return (
    <div className="mx-auto max-w-6xl px-6 py-16">
      <title>Pricing · Lexdesk</title>
      <div className="mb-12 text-center">
        <h1 className="font-serif text-4xl font-semibold tracking-tight">
          Simple, transparent pricing
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
          Every plan starts with a 14-day free trial. No credit card required.
        </p>
      </div>
      <div className="grid items-stretch gap-6 md:grid-cols-3">
        {plans.map((plan) => (
          <Card
            key={plan.name}
            aria-labelledby={`plan-${plan.name}`}
            role="region"
            className={cn(
              'relative flex flex-col',
              plan.popular && 'border-primary shadow-md ring-1 ring-primary',
            )}
          >
            {plan.popular ? (
              <Badge className="absolute -top-3 left-1/2 -translate-x-1/2">Most Popular</Badge>
            ) : null}
            <CardHeader>
              <CardTitle id={`plan-${plan.name}`} className="text-xl">
                {plan.name}
              </CardTitle>
              <CardDescription>{plan.description}</CardDescription>
              <p className="pt-4">
                <span className="font-serif text-4xl font-semibold">{plan.price}</span>
                {plan.period ? <span className="text-muted-foreground">{plan.period}</span> : null}
              </p>
            </CardHeader>
            <CardContent className="flex-1">
              <ul className="space-y-2 text-sm">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
            </CardContent>
            <CardFooter>
              <Button asChild className="w-full" variant={plan.popular ? 'default' : 'outline'}>
                <Link to="/auth">{plan.cta}</Link>
              </Button>
            </CardFooter>
          </Card>
        ))}
      </div>
    </div>
  )
}
