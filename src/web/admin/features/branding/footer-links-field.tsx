import { useId } from 'react';
import type { FooterLink } from '../../../../shared/api/settings.ts';
import {
  FOOTER_LABEL_MAX,
  FOOTER_LINKS_MAX,
  FOOTER_URL_MAX,
  footerLabelProblem,
  footerUrlProblem,
} from '../../../../shared/footer-links.ts';
import { Field } from '../../components/field.tsx';
import type { FieldErrors } from '../../lib/errors.ts';

/** What the server would refuse in the links, by the fields it would name (`footer_links.0.url`). */
export function footerLinkProblems(links: FooterLink[]): FieldErrors {
  const problems: FieldErrors = {};
  links.forEach((link, index) => {
    const label = footerLabelProblem(link.label.trim());
    if (label) problems[`footer_links.${index}.label`] = label;
    const url = footerUrlProblem(link.url.trim());
    if (url) problems[`footer_links.${index}.url`] = url;
  });
  return problems;
}

/** The footer's links: a label and an address each, in order, a few at most. */
export function FooterLinksField({
  links,
  errors,
  onChange,
}: {
  links: FooterLink[];
  errors: FieldErrors;
  onChange: (links: FooterLink[]) => void;
}) {
  const hintId = useId();
  const change = (index: number, part: Partial<FooterLink>) =>
    onChange(links.map((link, i) => (i === index ? { ...link, ...part } : link)));
  return (
    <fieldset className="choice-group footer-links-field" aria-describedby={hintId}>
      <legend>Footer links</legend>
      <p className="field-hint" id={hintId}>
        Shown under every page of the public site, after the site title: up to {FOOTER_LINKS_MAX} links, each
        an address on the web (https://…) or a page of this site (/privacy).
      </p>
      {errors.footer_links && <p className="field-error">{errors.footer_links}</p>}
      {links.length > 0 && (
        <ol className="footer-link-rows">
          {links.map((link, index) => (
            <li key={index} className="footer-link-row">
              <Field label={`Label ${index + 1}`} error={errors[`footer_links.${index}.label`]}>
                <input
                  type="text"
                  maxLength={FOOTER_LABEL_MAX}
                  value={link.label}
                  placeholder="Status"
                  onChange={(e) => change(index, { label: e.target.value })}
                />
              </Field>
              <Field label={`Address ${index + 1}`} error={errors[`footer_links.${index}.url`]}>
                <input
                  type="text"
                  inputMode="url"
                  maxLength={FOOTER_URL_MAX}
                  value={link.url}
                  placeholder="https://status.example.com"
                  onChange={(e) => change(index, { url: e.target.value })}
                />
              </Field>
              <button
                type="button"
                className="button button-quiet"
                aria-label={`Remove link ${index + 1}${link.label ? ` (${link.label})` : ''}`}
                onClick={() => onChange(links.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      <div>
        <button
          type="button"
          className="button button-secondary"
          disabled={links.length >= FOOTER_LINKS_MAX}
          onClick={() => onChange([...links, { label: '', url: '' }])}
        >
          Add a link
        </button>
      </div>
    </fieldset>
  );
}
