import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Building2Icon } from 'lucide-react'
import { useQuery } from '@tanstack/react-query'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card'
import { orgPath } from '../../../lib/org-path'
import { orgsQuery } from '../api/orgs'
import { CreateOrgForm } from './create-org-form'
import type { ResolvedOrgScope } from '../hooks/use-resolved-org-scope'

/**
 * What a dashboard URL whose organisation (or app) is not one of the user's shows: which part was
 * not found, and links to the user's organisations (or the create form when they have none).
 */
export function UnknownScope({
  resolved,
}: {
  resolved: Extract<ResolvedOrgScope, { status: 'unknown-org' | 'unknown-app' | 'error' }>
}) {
  const orgs = useQuery(orgsQuery())
  if (resolved.status === 'error') {
    return (
      <ScopeCard
        title="Organizations unavailable"
        text={`Your organizations could not be loaded: ${resolved.error.message}`}
      />
    )
  }
  if (resolved.status === 'unknown-app') {
    return (
      <ScopeCard
        title="App not found"
        text={`${resolved.org.name} has no app '${resolved.appSlug}'.`}
      >
        <Link className="underline underline-offset-2" to={orgPath({ orgSlug: resolved.org.slug })}>
          Open all apps of {resolved.org.name}
        </Link>
      </ScopeCard>
    )
  }
  const list = orgs.data ?? []
  return (
    <ScopeCard
      title="Organization not found"
      text={`You are not a member of an organization '${resolved.orgSlug}'. Choose one of yours${list.length === 0 ? ', or create one' : ''}.`}
    >
      {list.length > 0 ? (
        <ul aria-label="Your organizations" className="space-y-1">
          {list.map((org) => (
            <li key={org.id}>
              <Link className="underline underline-offset-2" to={orgPath({ orgSlug: org.slug })}>
                {org.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <CreateOrgForm />
      )}
    </ScopeCard>
  )
}

function ScopeCard({
  title,
  text,
  children,
}: {
  title: string
  text: string
  children?: ReactNode
}) {
  return (
    <Card className="mx-auto max-w-lg">
      <CardHeader>
        <Building2Icon className="size-6 text-muted-foreground" aria-hidden="true" />
        <CardTitle>{title}</CardTitle>
        <CardDescription>{text}</CardDescription>
      </CardHeader>
      {children ? <CardContent>{children}</CardContent> : null}
    </Card>
  )
}
