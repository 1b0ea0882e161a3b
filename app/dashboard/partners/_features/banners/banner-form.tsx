'use client';

import { useMutation } from '@tanstack/react-query';
import { type UseFormRegisterReturn, type UseFormReturn, useWatch } from 'react-hook-form';
import { SellBannerView } from '@/components/access-layer/sell-banner';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Field, type FieldProps, SelectField } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { BANNER_PLACEMENTS, bannerInput, toSellBannerComponent } from '@/server/modules/access-layer/schemas';
import { apiResolver, fieldMessages, useDashboardForm } from '../../../_shared/api-form';
import layout from '../../_shared/form-layout.module.css';

type Placement = (typeof BANNER_PLACEMENTS)[number];

export interface BannerValues {
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

export const EMPTY: BannerValues = {
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

export const PLACEMENTS: { value: Placement; label: string }[] = [
  { value: 'SELL', label: 'Sell access layer (sellers)' },
  { value: 'BUY', label: 'Buy access layer (buyers)' },
  { value: 'BOTH', label: 'Both' },
];

const nullIfEmpty = (v: string) => (v.trim() === '' ? null : v.trim());

export type Item = {
  id: string;
  eventRef: string | null;
  eventTitle: string | null;
  showId: string | null;
  defaultUrl: string;
} & Omit<BannerValues, 'eventRef' | 'showId' | 'hoursBeforeShow' | 'imageUrl' | 'ctaUrl' | `${string}Color`> & {
    hoursBeforeShow: number | null;
    imageUrl: string | null;
    ctaUrl: string | null;
    backgroundColor: string | null;
    textColor: string | null;
    ctaBackgroundColor: string | null;
    ctaTextColor: string | null;
  };

export function formOf(b: Item): BannerValues {
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

/** What the banner looks like to the access layer (the preview's input and the call's share it). */
const lookOf = (v: BannerValues) => ({
  imageUrl: nullIfEmpty(v.imageUrl),
  backgroundColor: nullIfEmpty(v.backgroundColor),
  textColor: nullIfEmpty(v.textColor),
  ctaUrl: nullIfEmpty(v.ctaUrl),
  ctaEnabled: v.ctaEnabled,
  ctaBackgroundColor: nullIfEmpty(v.ctaBackgroundColor),
  ctaTextColor: nullIfEmpty(v.ctaTextColor),
});

const inputOf = (partnerId: string, v: BannerValues) => {
  const hours = v.hoursBeforeShow.trim() === '' ? null : Number(v.hoursBeforeShow);
  return {
    partnerId,
    eventRef: nullIfEmpty(v.eventRef),
    showId: nullIfEmpty(v.showId),
    placement: v.placement,
    title: v.title,
    description: v.description,
    ctaText: v.ctaText,
    ...lookOf(v),
    onlyWhenPrimarySoldOut: v.onlyWhenPrimarySoldOut,
    hoursBeforeShow: hours !== null && Number.isFinite(hours) ? hours : null,
    onlyForSellersWithSellable: v.onlyForSellersWithSellable,
    active: v.active,
  };
};

/** The banner being edited: a stored one (`id`) or a new one, and where its button leads by default. */
export interface Editing {
  id: string | null;
  defaultUrl: string;
  values: BannerValues;
}

/** The banner's fields with a live preview, at a phone's and a desktop's width, of what partners receive. */
export function BannerForm({
  partnerId,
  editing,
  onSaved,
  onCancel,
}: {
  partnerId: string;
  editing: Editing;
  onSaved: (done: string) => Promise<void>;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const form = useDashboardForm<BannerValues>({
    defaultValues: editing.values,
    resolver: apiResolver(bannerInput, (v) => inputOf(partnerId, v)),
  });
  const create = useMutation(trpc.banners.create.mutationOptions());
  const update = useMutation(trpc.banners.update.mutationOptions());
  const save = editing.id ? update : create;
  const { errorOf, atField } = fieldMessages(form.formState.errors, save.error);

  const submit = form.handleSubmit((values) => {
    const input = inputOf(partnerId, values);
    const onSuccess = () => onSaved(editing.id ? 'Banner saved.' : 'Banner created.');
    if (editing.id) update.mutate({ ...input, bannerId: editing.id }, { onSuccess });
    else create.mutate(input, { onSuccess });
  });

  return (
    <ActionForm onSubmit={() => void submit()} aria-label="Banner" error={save.error} errorAtField={atField}>
      <BannerFields form={form} errorOf={errorOf} />
      <BannerPreview form={form} defaultUrl={editing.defaultUrl} />
      <FormActions submit={editing.id ? 'Save banner' : 'Create banner'} pending={save.isPending} onCancel={onCancel} />
    </ActionForm>
  );
}

function Check({ label, hint, input }: { label: string; hint?: string; input: UseFormRegisterReturn }) {
  return (
    <label className="field" style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
      <input type="checkbox" {...input} />
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

type TextKey = { [K in keyof BannerValues]: BannerValues[K] extends string ? K : never }[keyof BannerValues];

function BannerFields({
  form,
  errorOf,
}: {
  form: UseFormReturn<BannerValues>;
  errorOf: (field: string) => string | null;
}) {
  const text = (key: TextKey, label: string, props: Partial<FieldProps> = {}) => (
    <Field label={label} {...form.register(key)} error={errorOf(key)} {...props} />
  );
  return (
    <>
      <div className={layout.twoColumns}>
        {text('eventRef', 'Event (externalReferenceId)', {
          hint: 'Empty: every event of the partner.',
          autoComplete: 'off',
        })}
        {text('showId', 'Show (showId)', { hint: 'Empty: every show of the event.', autoComplete: 'off' })}
        <SelectField label="Placement" {...form.register('placement')}>
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
      <Check label="Button enabled" input={form.register('ctaEnabled')} />
      <Check
        label="Only when the primary is sold out"
        hint="As the partner reports it through the inventory API."
        input={form.register('onlyWhenPrimarySoldOut')}
      />
      <Check
        label="Only for sellers with sellable tickets"
        hint="Sell access layer only."
        input={form.register('onlyForSellersWithSellable')}
      />
      <Check label="Active" input={form.register('active')} />
    </>
  );
}

/** Renders, on the unsaved values, the component the access layer will answer, through the same function. */
function BannerPreview({ form, defaultUrl }: { form: UseFormReturn<BannerValues>; defaultUrl: string }) {
  // Re-renders on every edit; the values themselves come whole from getValues.
  useWatch({ control: form.control });
  const values = form.getValues();
  const preview = toSellBannerComponent(
    {
      ...lookOf(values),
      title: values.title || 'Banner title',
      description: values.description,
      ctaText: values.ctaText || 'Button',
    },
    { visible: values.active, defaultUrl },
  ).sellBanner;

  return (
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
  );
}
