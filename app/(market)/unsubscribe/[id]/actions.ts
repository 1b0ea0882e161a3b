'use server';

import { redirect } from 'next/navigation';
import { getDb } from '@/db';
import { assertForm } from '@/server/http/form-argument';
import { unsubscribeNotification } from '@/server/modules/market-data';

/**
 * The unsubscribe button. The lead's id comes with the form (it is the page's own address, so it is no
 * secret the form gives away) rather than bound into an inline action, whose encrypted bound arguments
 * Next.js fails on with a 500 when a crafted call sends others.
 */
export async function unsubscribeAction(form: FormData): Promise<void> {
  assertForm(form);
  const id = String(form.get('id') ?? '');
  await unsubscribeNotification(id, getDb());
  redirect(`/unsubscribe/${encodeURIComponent(id)}?done=1`);
}
