'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SellBannerView } from '@/components/access-layer/sell-banner';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Field, SelectField } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { toSellBannerComponent } from '@/server/modules/access-layer/schemas';
import layout from '../../_shared/form-layout.module.css';

type Placement = 'SELL' | 'BUY' | 'BOTH';

interface Form {
  eventRef: string;
  showId: string;
  placement: Placement;
  title: string;
  description: string;
  imageUrl: string;
  backgroundColor: string;
  textColor: string;
  ctaText: string;
  ctaUrl: string;
  ctaEnabled: boolean;
  ctaBackgroundColor: string;
  ctaTextColor: string;
  onlyWhenPrimarySoldOut: boolean;
  hoursBeforeShow: string;
  onlyForSellersWithSellable: boolean;
  active: boolean;
}

const EMPTY: Form = {
  eventRef: '',
  showId: '',
  placement: 'SELL',
  title: '',
  description: '',
  imageUrl: '',
  backgroundColor: '#1f2937',
  textColor: '#ffffff',
  ctaText: 'Sell your tickets',
  ctaUrl: '',
  ctaEnabled: true,
  ctaBackgroundColor: '#ffffff',
  ctaTextColor: '#111827',
  onlyWhenPrimarySoldOut: false,
  hoursBeforeShow: '',
  onlyForSellersWithSellable: false,
  active: true,
};

const PLACEMENTS: { value: Placement; label: string }[] = [
  { value: 'SELL', label: 'Sell access layer (sellers)' },
  { value: 'BUY', label: 'Buy access layer (buyers)' },
  { value: 'BOTH', label: 'Both' },
];

const nullIfEmpty = (v: string) => (v.trim() === '' ? null : v.trim());

type Item = {
  id: string;
  eventRef: string | null;
  eventTitle: string | null;
  showId: string | null;
  defaultUrl: string;
} & Omit<Form, 'eventRef' | 'showId' | 'hoursBeforeShow' | 'imageUrl' | 'ctaUrl' | `${string}Color`> & {
    hoursBeforeShow: number | null;
    imageUrl: string | null;
    ctaUrl: string | null;
    backgroundColor: string | null;
    textColor: string | null;
    ctaBackgroundColor: string | null;
    ctaTextColor: string | null;
  };

function formOf(b: Item): Form {
  return {
    eventRef: b.eventRef ?? '',
    showId: b.showId ?? '',
    placement: b.placement,
    title: b.title,
    description: b.description,
    imageUrl: b.imageUrl ?? '',
    backgroundColor: b.backgroundColor ?? '',
    textColor: b.textColor ?? '',
    ctaText: b.ctaText,
    ctaUrl: b.ctaUrl ?? '',
    ctaEnabled: b.ctaEnabled,
    ctaBackgroundColor: b.ctaBackgroundColor ?? '',
    ctaTextColor: b.ctaTextColor ?? '',
    onlyWhenPrimarySoldOut: b.onlyWhenPrimarySoldOut,
    hoursBeforeShow: b.hoursBeforeShow === null ? '' : String(b.hoursBeforeShow),
    onlyForSellersWithSellable: b.onlyForSellersWithSellable,
    active: b.active,
  };
}

function scopeLabel(b: Item): string {
  if (!b.eventRef) return 'Every event';
  return b.showId ? `${b.eventRef} · show ${b.showId}` : `${b.eventRef} (all shows)`;
}

function rulesLabel(b: Item): string {
  const rules = [
    b.onlyWhenPrimarySoldOut && 'primary sold out',
    b.hoursBeforeShow !== null && `within ${b.hoursBeforeShow} h of the show`,
    b.onlyForSellersWithSellable && 'seller has sellable tickets',
  ].filter(Boolean);
  return rules.length ? `Only when ${rules.join(', ')}` : 'Always';
}

function Check({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  hint?: string;
}) {
  return (
    <label className="field" style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        {label}
        {hint ? (
          <span className="field-hint" style={{ display: 'block' }}>
            {hint}
          </span>
        ) : null}
      </span>
    </label>
  );
}

/**
 * The partner's sell banners: the list, and an editor whose live preview (at a phone's and a desktop's
 * width) renders the component the access layer will answer, through the same function.
 */
export function BannerEditor({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(trpc.banners.list.queryOptions({ partnerId }));
  const [editing, setEditing] = useState<{ id: string | null; defaultUrl: string } | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [deleting, setDeleting] = useState<Item | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.banners.list.queryKey({ partnerId }) });

  const create = useMutation(trpc.banners.create.mutationOptions());
  const update = useMutation(trpc.banners.update.mutationOptions());
  const remove = useMutation(
    trpc.banners.delete.mutationOptions({
      onSuccess: async () => {
        setDeleting(null);
        await refresh();
      },
    }),
  );
  const save = editing?.id ? update : create;
  const errors = fieldErrors(save.error);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setDone(null);
  };

  const hours = form.hoursBeforeShow.trim() === '' ? null : Number(form.hoursBeforeShow);
  const settings = {
    title: form.title || 'Banner title',
    description: form.description,
    imageUrl: nullIfEmpty(form.imageUrl),
    backgroundColor: nullIfEmpty(form.backgroundColor),
    textColor: nullIfEmpty(form.textColor),
    ctaText: form.ctaText || 'Button',
    ctaUrl: nullIfEmpty(form.ctaUrl),
    ctaEnabled: form.ctaEnabled,
    ctaBackgroundColor: nullIfEmpty(form.ctaBackgroundColor),
    ctaTextColor: nullIfEmpty(form.ctaTextColor),
  };
  const preview = toSellBannerComponent(settings, {
    visible: form.active,
    defaultUrl: editing?.defaultUrl ?? data.resaleEntryUrl,
  }).sellBanner;

  function submit() {
    const input = {
      partnerId,
      eventRef: nullIfEmpty(form.eventRef),
      showId: nullIfEmpty(form.showId),
      placement: form.placement,
      title: form.title,
      description: form.description,
      imageUrl: nullIfEmpty(form.imageUrl),
      backgroundColor: nullIfEmpty(form.backgroundColor),
      textColor: nullIfEmpty(form.textColor),
      ctaText: form.ctaText,
      ctaUrl: nullIfEmpty(form.ctaUrl),
      ctaEnabled: form.ctaEnabled,
      ctaBackgroundColor: nullIfEmpty(form.ctaBackgroundColor),
      ctaTextColor: nullIfEmpty(form.ctaTextColor),
      onlyWhenPrimarySoldOut: form.onlyWhenPrimarySoldOut,
      hoursBeforeShow: hours !== null && Number.isFinite(hours) ? hours : null,
      onlyForSellersWithSellable: form.onlyForSellersWithSellable,
      active: form.active,
    };
    const onSuccess = async () => {
      await refresh();
      setEditing(null);
      setForm(EMPTY);
      setDone(editing?.id ? 'Banner saved.' : 'Banner created.');
    };
    if (editing?.id) update.mutate({ ...input, bannerId: editing.id }, { onSuccess });
    else create.mutate(input, { onSuccess });
  }

  const text = (key: keyof Form, label: string, props: Record<string, unknown> = {}) => (
    <Field
      label={label}
      name={key}
      value={form[key] as string}
      onChange={(e) => set(key, e.target.value as never)}
      error={errors[key] ?? null}
      {...props}
    />
  );

  return (
    <>
      <SectionCard
        data-testid="banner-list"
        title="Banners"
        description="Shown by the access layer as sellBanner components, newest first; a show's banners before its event's and the partner's."
        actions={
          editing ? null : (
            <Button
              variant="primary"
              onClick={() => {
                setEditing({ id: null, defaultUrl: data.resaleEntryUrl });
                setForm(EMPTY);
                setDone(null);
              }}
            >
              New banner
            </Button>
          )
        }
      >
        {done ? (
          <p role="status" className="card-body">
            {done}
          </p>
        ) : null}
        {data.items.length === 0 ? (
          <EmptyState
            title="No banners yet"
            description="A banner invites fans to resell (or buy) on the partner's own pages, through the access layer."
          />
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Where</th>
                  <th scope="col">Placement</th>
                  <th scope="col">Shown</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {(data.items as Item[]).map((b) => (
                  <tr key={b.id} data-testid="banner-row">
                    <td>
                      {b.title} {b.active ? null : <Badge tone="neutral">Paused</Badge>}
                    </td>
                    <td>{scopeLabel(b)}</td>
                    <td>{PLACEMENTS.find((p) => p.value === b.placement)?.label}</td>
                    <td>{rulesLabel(b)}</td>
                    <td style={{ whiteSpace: 'nowrap' }}>
                      <Button
                        size="sm"
                        onClick={() => {
                          setEditing({ id: b.id, defaultUrl: b.defaultUrl });
                          setForm(formOf(b));
                          setDone(null);
                        }}
                      >
                        Edit
                      </Button>{' '}
                      <Button size="sm" variant="danger" onClick={() => setDeleting(b)}>
                        Delete
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </SectionCard>

      {editing ? (
        <SectionCard
          data-testid="banner-form"
          title={editing.id ? 'Edit banner' : 'New banner'}
          description="The preview updates as you type; it is the component partners receive."
        >
          <div className="card-body">
            <ActionForm
              onSubmit={submit}
              aria-label="Banner"
              error={save.error}
              errorAtField={Object.keys(errors).length > 0}
            >
              <div className={layout.twoColumns}>
                {text('eventRef', 'Event (externalReferenceId)', {
                  hint: 'Empty: every event of the partner.',
                  autoComplete: 'off',
                })}
                {text('showId', 'Show (showId)', { hint: 'Empty: every show of the event.', autoComplete: 'off' })}
                <SelectField
                  label="Placement"
                  name="placement"
                  value={form.placement}
                  onChange={(e) => set('placement', e.target.value as Placement)}
                >
                  {PLACEMENTS.map((p) => (
                    <option key={p.value} value={p.value}>
                      {p.label}
                    </option>
                  ))}
                </SelectField>
                {text('title', 'Title', { required: true, maxLength: 120 })}
                {text('description', 'Description', { maxLength: 500 })}
                {text('imageUrl', 'Image URL', { type: 'url', hint: 'https only.', placeholder: 'https://…' })}
                {text('backgroundColor', 'Background colour', { hint: 'Like #1a2b3c.' })}
                {text('textColor', 'Text colour', { hint: 'Like #ffffff.' })}
                {text('ctaText', 'Button text', { required: true, maxLength: 40 })}
                {text('ctaUrl', 'Button URL', {
                  type: 'url',
                  hint: "Empty: Encore's page (the resale entry page, or the show's market for buyers).",
                  placeholder: 'https://…',
                })}
                {text('ctaBackgroundColor', 'Button colour')}
                {text('ctaTextColor', 'Button text colour')}
                {text('hoursBeforeShow', 'Only within hours before the show', {
                  inputMode: 'numeric',
                  hint: 'Empty: any time before the show.',
                })}
              </div>
              <Check label="Button enabled" checked={form.ctaEnabled} onChange={(v) => set('ctaEnabled', v)} />
              <Check
                label="Only when the primary is sold out"
                hint="As the partner reports it through the inventory API."
                checked={form.onlyWhenPrimarySoldOut}
                onChange={(v) => set('onlyWhenPrimarySoldOut', v)}
              />
              <Check
                label="Only for sellers with sellable tickets"
                hint="Sell access layer only."
                checked={form.onlyForSellersWithSellable}
                onChange={(v) => set('onlyForSellersWithSellable', v)}
              />
              <Check label="Active" checked={form.active} onChange={(v) => set('active', v)} />

              <div className="banner-preview-frames" aria-label="Preview">
                <div className="banner-preview-frame" style={{ width: 390, maxWidth: '100%' }}>
                  <p>Phone (390 px)</p>
                  <SellBannerView banner={preview} testId="banner-preview-mobile" />
                </div>
                <div className="banner-preview-frame" style={{ width: 760, maxWidth: '100%' }}>
                  <p>Desktop</p>
                  <SellBannerView banner={preview} testId="banner-preview-desktop" />
                </div>
              </div>

              <FormActions
                submit={editing.id ? 'Save banner' : 'Create banner'}
                pending={save.isPending}
                onCancel={() => {
                  setEditing(null);
                  setForm(EMPTY);
                }}
              />
            </ActionForm>
          </div>
        </SectionCard>
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this banner?"
        description={
          <>
            <strong>{deleting?.title}</strong> stops appearing in the access layer at once. This cannot be undone.
          </>
        }
        confirmLabel="Delete banner"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate({ partnerId, bannerId: deleting.id })}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
