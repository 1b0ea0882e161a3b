import type { Metadata } from 'next';
import { Card, CardBody } from '@/components/ui/card';
import { EmptyStateWithLink } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { requireStaff } from '@/server/auth/session';
import { may } from '@/server/lib/staff-roles';
import { CreatePartnerForm } from '../_features/create/create-partner-form';

export const metadata: Metadata = { title: 'New partner' };

export default async function NewPartnerPage() {
  const staff = await requireStaff('/dashboard/partners/new');
  return (
    <>
      <PageHeader
        title="New partner"
        description="Creates the partner with one API key and one Channels API key."
        back={{ href: '/dashboard/partners', label: 'Partners' }}
      />
      {may(staff.role, 'admin') ? (
        <CreatePartnerForm />
      ) : (
        <Card>
          <CardBody>
            <EmptyStateWithLink
              title="Only an admin creates partners"
              description={`Your role (${staff.role}) reads partners. Ask an admin to create this one.`}
              link={{ href: '/dashboard/partners', label: 'Back to partners' }}
            />
          </CardBody>
        </Card>
      )}
    </>
  );
}
