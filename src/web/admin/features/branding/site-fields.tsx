import { useId } from 'react';
import type { Environments } from '../../../../shared/api/settings.ts';
import { PROJECT_ID_MAX, TITLE_MAX, type Language } from '../../../../shared/constants.ts';
import { CheckboxField, Field } from '../../components/field.tsx';
import { LanguageOptions } from '../../components/language-options.tsx';
import { ImageField } from './image-field.tsx';
import type { BrandingForm } from './use-branding-form.ts';

/** What the portal checkbox means on this server: no portal, this server's own, or one elsewhere. */
function portalHint(environments: Environments): string {
  return environments.user_portal === null
    ? 'No portal address is set, so the public site shows no portal links even when this is ticked. The request form on articles works without one.'
    : environments.user_portal === ''
      ? `The portal is this server’s own (/issues, /user/profile, /login). Its sign-in link shows whether or not this is ticked.${environments.accounts.mail ? '' : ' No mail server is set (SMTP_URL), so visitors cannot sign up or reset a password; make their accounts on the Users page.'}`
      : `The portal is at ${environments.user_portal}. Its sign-in link shows whether or not this is ticked.`;
}

/** The site's titles, language, switches, project id, logo and background. */
export function SiteFields({
  branding,
  environments,
}: {
  branding: BrandingForm;
  environments: Environments;
}) {
  const { form, set, errors, logo, setLogo, background, setBackground, choose } = branding;
  const portalHintId = useId();
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

  return (
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
          {portalHint(environments)}
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
  );
}
