/**
 * The two legal checkboxes of registration and legal acceptance: unticked, both required, each
 * naming its document with a link to it (config.legal: LEGAL_*_URL or the texts at /legal/*).
 */
import { config } from '../../app/config';

export function LegalChecks({
  terms,
  privacy,
  onTerms,
  onPrivacy,
  version,
  termsError,
  privacyError,
}: {
  terms: boolean;
  privacy: boolean;
  onTerms(v: boolean): void;
  onPrivacy(v: boolean): void;
  version?: string | null;
  termsError?: string;
  privacyError?: string;
}) {
  const v = version ?? config.termsVersion;
  return (
    <fieldset className="legal">
      <legend>Legal</legend>
      <div className="check">
        <input id="accept-terms" type="checkbox" checked={terms} onChange={(e) => onTerms(e.target.checked)} aria-describedby={termsError ? 'accept-terms-error' : undefined} />
        <label htmlFor="accept-terms">
          I accept the terms of service{v ? ` (version ${v})` : ''}.
        </label>{' '}
        <a href={config.legal.terms} target="_blank" rel="noopener">
          Read the terms<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </div>
      {termsError && (
        <p className="field-error" id="accept-terms-error">
          {termsError}
        </p>
      )}
      <div className="check">
        <input id="acknowledge-privacy" type="checkbox" checked={privacy} onChange={(e) => onPrivacy(e.target.checked)} aria-describedby={privacyError ? 'acknowledge-privacy-error' : undefined} />
        <label htmlFor="acknowledge-privacy">I have read the privacy policy, which says how my account data and usage are processed.</label>{' '}
        <a href={config.legal.privacy} target="_blank" rel="noopener">
          Read the privacy policy<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </div>
      {privacyError && (
        <p className="field-error" id="acknowledge-privacy-error">
          {privacyError}
        </p>
      )}
    </fieldset>
  );
}
