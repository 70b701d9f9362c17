import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { BrandingUpdateBody } from '../../../../shared/api/admin.ts';
import type { Branding } from '../../../../shared/api/settings.ts';
import { adminCall, uploadFiles } from '../../api/admin-api.ts';
import { messageOf } from '../../lib/errors.ts';
import { useFormSubmission } from '../../lib/use-form-submission.ts';
import { footerLinkProblems } from './footer-links-field.tsx';
import { useObjectUrlCleanup, type ImageChoice } from './image-field.tsx';
import { titlesBody, titlesFormOf } from './titles-field.tsx';

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

/**
 * The branding form's values against the saved branding, the logo and background chosen (uploaded at once, used
 * once saved), and saving: footer links the server would refuse are refused at the field first.
 */
export function useBrandingForm(loaded: Branding) {
  const [saved, setSaved] = useState(loaded);
  const [form, setForm] = useState(() => formOf(loaded));
  const [logo, setLogo] = useState<ImageChoice>({ fileId: undefined, url: loaded.logo_url });
  const [background, setBackground] = useState<ImageChoice>({
    fileId: undefined,
    url: loaded.background_url,
  });
  const [status, setStatus] = useState('');
  const { errors, setErrors, message, busy, submitWith } = useFormSubmission();
  const revalidator = useRevalidator();

  useObjectUrlCleanup(logo.url);
  useObjectUrlCleanup(background.url);

  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

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

  return {
    form,
    set,
    logo,
    setLogo,
    background,
    setBackground,
    status,
    errors,
    message,
    busy,
    choose,
    handleSubmit,
    changed,
  };
}

export type BrandingForm = ReturnType<typeof useBrandingForm>;
