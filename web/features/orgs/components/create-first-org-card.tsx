import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card'
import { CreateOrgForm } from './create-org-form'

/**
 * 'Create your organization' card with the create form, for a user who has none yet; the only
 * thing on that page, so its title is the page's <h1>.
 */
export function CreateFirstOrgCard() {
  return (
    <Card className="border-primary/40">
      <CardHeader>
        <CardTitle level={1}>Create your organization</CardTitle>
        <CardDescription>
          Documents and data belong to an organization. Create one for your firm; you will be its
          owner and invite colleagues from Members. If your firm already uses Lexdesk, ask one of
          its owners or admins to invite this address instead.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <CreateOrgForm />
      </CardContent>
    </Card>
  )
}
