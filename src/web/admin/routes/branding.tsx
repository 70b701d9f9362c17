import { useEffect, useId, useState } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import type { BrandingUpdateBody } from '../../../shared/api/admin.ts';
import type { Branding, Environments } from '../../../shared/api/settings.ts';
import { PROJECT_ID_MAX, TITLE_MAX, type Language } from '../../../shared/constants.ts';
import { adminCall, uploadFiles } from '../api/admin-api.ts';
import { TitlesField, titlesBody, titlesFormOf } from '../features/branding/titles-field.tsx';
import { CheckboxField, Field, FormError } from '../components/field.tsx';
import { LanguageOptions } from '../components/language-options.tsx';
import { messageOf } from '../lib/errors.ts';
import { useFormSubmission } from '../lib/use-form-submission.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { FooterLinksField, footerLinkProblems } from '../features/branding/footer-links-field.tsx';
import { HeaderPreview } from '../features/branding/header-preview.tsx';

interface BrandingData {
  branding: Branding;
  /** Where the portal is (user_portal), which decides, with portal_enabled, what the public header links to. */
  environments: Environments;
}

export const brandingLoader = async (): Promise<BrandingData> => {
  const [branding, environments] = await Promise.all([
    adminCall('getAdminBranding'),
    adminCall('getEnvironments'),
  ]);
  return { branding, environments };
};

const formOf = (branding: Branding) => ({
  knowledge_title: branding.knowledge_title,
  site_title: branding.site_title,
  lang: branding.lang,
  knowledge_enabled: branding.knowledge_enabled,
  portal_enabled: branding.portal_enabled,
  project_id: branding.project_id ?? '',
  footer_links: branding.footer_links,
  titles: titlesFormOf(branding.titles),
});

/** Object URLs of chosen images are let go when the choice changes. */
function useObjectUrlCleanup(url: string | null) {
  useEffect(() => () => (url?.startsWith('blob:') ? URL.revokeObjectURL(url) : undefined), [url]);
}

/** An image chosen for the logo or background: undefined while unchanged, null to remove it. */
interface ImageChoice {
  fileId: number | null | undefined;
  url: string | null;
}

function ImageField({
  label,
  choice,
  error,
  onChoose,
  onRemove,
}: {
  label: string;
  choice: ImageChoice;
  error?: string | undefined;
  onChoose: (file: File) => void;
  onRemove: () => void;
}) {
  const id = useId();
  return (
    <div className="field image-field">
      <label htmlFor={id}>{label}</label>
      {choice.url ? (
        <img className="image-thumb" src={choice.url} alt={`Current ${label.toLowerCase()}`} />
      ) : (
        <p className="muted">None</p>
      )}
      <input
        id={id}
        type="file"
        accept="image/*"
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onChoose(file);
          event.target.value = '';
        }}
      />
      {choice.url && (
        <button type="button" className="button button-quiet" onClick={onRemove}>
          Remove the {label.toLowerCase()}
        </button>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function BrandingPage() {
  usePageTitle('Branding');
  const { branding: loaded, environments } = useLoaderData() as BrandingData;
  const portalHintId = useId();
  const revalidator = useRevalidator();
  const [saved, setSaved] = useState(loaded);
  const [form, setForm] = useState(() => formOf(loaded));
  const [logo, setLogo] = useState<ImageChoice>({ fileId: undefined, url: loaded.logo_url });
  const [background, setBackground] = useState<ImageChoice>({
    fileId: undefined,
    url: loaded.background_url,
  });
  const [status, setStatus] = useState('');
  const { errors, setErrors, message, busy, submitWith } = useFormSubmission();

  useObjectUrlCleanup(logo.url);
  useObjectUrlCleanup(background.url);

  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  /** One of the short texts, a line of at most TITLE_MAX characters (PROJECT_ID_MAX for the project id). */
  const textField = (key: 'knowledge_title' | 'site_title' | 'project_id', label: string, hint: string) => (
    <Field label={label} hint={hint} error={errors[key]}>
      <input
        type="text"
        maxLength={key === 'project_id' ? PROJECT_ID_MAX : TITLE_MAX}
        value={form[key]}
        onChange={(e) => set(key, e.target.value)}
      />
    </Field>
  );

  const choose = async (file: File, apply: (choice: ImageChoice) => void, field: string) => {
    setStatus(`Uploading ${file.name}…`);
    setErrors((current) => ({ ...current, [field]: '' }));
    try {
      const [stored] = (await uploadFiles([file])).items;
      if (!stored) throw new Error('The server kept no file.');
      apply({ fileId: stored.id, url: URL.createObjectURL(file) });
      setStatus(`${file.name} is ready: save to use it.`);
    } catch (error) {
      setErrors((current) => ({ ...current, [field]: `The upload failed: ${messageOf(error)}` }));
      setStatus('');
    }
  };

  const handleSubmit = submitWith(async () => {
    // What the server would refuse is said at once, at the field, without a round trip.
    const problems = footerLinkProblems(form.footer_links);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setStatus('');
      return;
    }
    const body: BrandingUpdateBody = {
      knowledge_title: form.knowledge_title,
      site_title: form.site_title,
      lang: form.lang,
      knowledge_enabled: form.knowledge_enabled,
      portal_enabled: form.portal_enabled,
      project_id: form.project_id.trim() || null,
      footer_links: form.footer_links.map(({ label, url }) => ({ label: label.trim(), url: url.trim() })),
      titles: titlesBody(form.titles, form.lang),
      ...(logo.fileId !== undefined ? { logo_file_id: logo.fileId } : {}),
      ...(background.fileId !== undefined ? { background_file_id: background.fileId } : {}),
    };
    const next = await adminCall('updateBranding', { body: body });
    setSaved(next);
    setForm(formOf(next));
    setLogo({ fileId: undefined, url: next.logo_url });
    setBackground({ fileId: undefined, url: next.background_url });
    setStatus('Saved: the public site shows the new branding now.');
    revalidator.revalidate();
  });

  const changed =
    JSON.stringify(form) !== JSON.stringify(formOf(saved)) ||
    logo.fileId !== undefined ||
    background.fileId !== undefined;

  return (
    <div className="branding-page">
      <h1 tabIndex={-1}>Branding</h1>
      <section aria-labelledby="preview-heading" className="preview-section">
        <h2 id="preview-heading">Public header preview</h2>
        <HeaderPreview
          look={{
            knowledge_title: form.knowledge_title,
            site_title: form.site_title,
            lang: form.lang,
            portal_enabled: form.portal_enabled,
            portal: environments.user_portal,
            logoUrl: logo.url,
            backgroundUrl: background.url,
          }}
        />
        {!form.knowledge_enabled && (
          <p className="banner banner-warning">The help centre is off: visitors see the not-found page.</p>
        )}
      </section>
      <form className="branding-form" onSubmit={handleSubmit} noValidate>
        <FormError message={message} />
        <div className="form-grid">
          {textField(
            'knowledge_title',
            'Help centre title',
            'The heading over the search box; empty shows “How can we help you?” in the site’s language.',
          )}
          {textField('site_title', 'Site title', 'Shown in the browser tab and instead of a logo.')}
          <Field label="Language of the public site" error={errors.lang}>
            <select value={form.lang} onChange={(e) => set('lang', e.target.value as Language)}>
              <LanguageOptions />
            </select>
          </Field>
          {textField('project_id', 'Project id', 'Passed to the analytics snippet, if one is configured.')}
          <CheckboxField
            label="The help centre is on"
            checked={form.knowledge_enabled}
            onChange={(checked) => set('knowledge_enabled', checked)}
          />
          <CheckboxField
            label="Link the customer portal (tickets, new requests, the visitor’s profile)"
            checked={form.portal_enabled}
            describedBy={portalHintId}
            onChange={(checked) => set('portal_enabled', checked)}
          >
            <p className="field-hint" id={portalHintId}>
              {environments.user_portal === null
                ? 'No portal address is set, so the public site shows no portal links even when this is ticked. The request form on articles works without one.'
                : environments.user_portal === ''
                  ? `The portal is this server’s own (/issues, /user/profile, /login). Its sign-in link shows whether or not this is ticked.${environments.accounts.mail ? '' : ' No mail server is set (SMTP_URL), so visitors cannot sign up or reset a password; make their accounts on the Users page.'}`
                  : `The portal is at ${environments.user_portal}. Its sign-in link shows whether or not this is ticked.`}
            </p>
          </CheckboxField>
          <ImageField
            label="Logo"
            choice={logo}
            error={errors.logo_file_id}
            onChoose={(file) => void choose(file, setLogo, 'logo_file_id')}
            onRemove={() => setLogo({ fileId: null, url: null })}
          />
          <ImageField
            label="Background"
            choice={background}
            error={errors.background_file_id}
            onChoose={(file) => void choose(file, setBackground, 'background_file_id')}
            onRemove={() => setBackground({ fileId: null, url: null })}
          />
        </div>
        <TitlesField
          form={form.titles}
          site={form.lang}
          siteTitles={form}
          errors={errors}
          onChange={(titles) => set('titles', titles)}
        />
        <FooterLinksField
          links={form.footer_links}
          errors={errors}
          onChange={(links) => set('footer_links', links)}
        />
        <div className="editor-actions">
          <button type="submit" className="button" disabled={busy || !changed}>
            Save branding
          </button>
          <span role="status" className="editor-status">
            {status}
          </span>
        </div>
      </form>
    </div>
  );
}
