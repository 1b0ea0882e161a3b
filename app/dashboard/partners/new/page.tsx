import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { requireStaff } from '@/server/auth/session';
import { CreatePartnerForm } from '../_features/create/create-partner-form';

export const metadata: Metadata = { title: 'New partner' };

export default async function NewPartnerPage() {
  await requireStaff('/dashboard/partners/new');
  return (
    <>
      <PageHeader
        title="New partner"
        description="Creates the partner with one API key and one Channels API key."
        back={{ href: '/dashboard/partners', label: 'Partners' }}
      />
      <CreatePartnerForm />
    </>
  );
}
