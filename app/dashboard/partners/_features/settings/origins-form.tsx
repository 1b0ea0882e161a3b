'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { RETURN_ORIGINS_MAX } from '@/server/lib/return-origins';

/**
 * The partner's allowed return origins (issue 29), one per line: the only sites a fan's "back" link
 * (`returnTo`) may lead to, and the only sites that may frame its buy, resale and sell pages. Empty:
 * any returnTo is accepted (the partner page warns: ReturnOriginsWarning).
 */
export function ReturnOriginsForm({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data: partner } = useSuspenseQuery(trpc.partners.get.queryOptions({ partnerId }));
  const [text, setText] = useState(partner.returnOrigins.join('\n'));
  const [saved, setSaved] = useState(false);
  const id = useId();
  const save = useMutation(
    trpc.partners.setReturnOrigins.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.partners.get.queryKey({ partnerId }), next);
        setText(next.returnOrigins.join('\n'));
        setSaved(true);
        // The page's warning about an empty list is server-rendered.
        router.refresh();
      },
    }),
  );
  const error = fieldErrors(save.error).returnOrigins ?? null;

  return (
    <ActionForm
      aria-label="Allowed return origins"
      onSubmit={() => {
        setSaved(false);
        save.mutate({ partnerId, returnOrigins: text.split('\n') });
      }}
      error={save.error}
      errorAtField={Boolean(error)}
    >
      <div className="field">
        <label htmlFor={id} className="field-label">
          Allowed return origins <span className="field-optional"> (optional)</span>
        </label>
        <textarea
          id={id}
          name="returnOrigins"
          className="input"
          rows={3}
          value={text}
          placeholder="https://tickets.partner.example"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(e) => {
            setText(e.target.value);
            setSaved(false);
          }}
        />
        <p id={`${id}-hint`} className="field-hint">
          One https:// origin per line (scheme, host and port, no path), at most {RETURN_ORIGINS_MAX}. A returnTo on
          another origin is refused with 400 and never shown as a back link; only these sites may frame the buy, resale
          and sell pages.
        </p>
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
      <FormActions submit="Save return origins" pending={save.isPending} done={saved ? 'Saved.' : null} />
    </ActionForm>
  );
}

/** On the partner's page while it has no allowed return origins: any site can be the return link. */
export function ReturnOriginsWarning({ origins }: { origins: readonly string[] }) {
  if (origins.length) return null;
  return (
    <div data-testid="return-origins-warning">
      <Alert tone="warning" title="Any site can be the return link: set your allowed origins">
        Anyone can craft an Encore link whose back button leads to a site of their choosing, and no site may frame the
        partner&apos;s buy, resale and sell pages. Set the allowed return origins under{' '}
        <a href="#settings">Partner settings</a>.
      </Alert>
    </div>
  );
}
