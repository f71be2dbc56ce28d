import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { CreateOrgForm } from './create-org-form'
import { useCurrentOrg } from './current-org'

/** 'Create your organization' card with the create form; renders nothing once the user has one. */
export function CreateFirstOrgCard() {
  const { orgs, isLoading } = useCurrentOrg()
  if (isLoading || orgs.length > 0) return null
  return (
    <Card className="border-primary/40">
      <CardHeader>
        <CardTitle>Create your organization</CardTitle>
        <CardDescription>
          Documents and data belong to an organization. Create one for your firm; you will be its
          owner and can invite colleagues later.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <CreateOrgForm />
      </CardContent>
    </Card>
  )
}
