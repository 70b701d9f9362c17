import { useLoaderData } from 'react-router';
import type { Branding, Environments } from '../../../shared/api/settings.ts';
import { adminCall } from '../api/admin-api.ts';
import { FormError } from '../components/field.tsx';
import { usePageTitle } from '../lib/use-page-title.ts';
import { FooterLinksField } from '../features/branding/footer-links-field.tsx';
import { HeaderPreview } from '../features/branding/header-preview.tsx';
import { SiteFields } from '../features/branding/site-fields.tsx';
import { TitlesField } from '../features/branding/titles-field.tsx';
import { useBrandingForm } from '../features/branding/use-branding-form.ts';

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

export function BrandingPage() {
  usePageTitle('Branding');
  const { branding: loaded, environments } = useLoaderData() as BrandingData;
  const branding = useBrandingForm(loaded);
  const { form, set, logo, background, status, errors, message, busy, handleSubmit, changed } = branding;

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
        <SiteFields branding={branding} environments={environments} />
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
