import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import type { ChatMessage } from './chat.api.ts';
import { asRecord, httpUrl, textField } from './message-payload.ts';

export interface AdReferral {
  headline?: string;
  body?: string;
  sourceUrl?: string;
  sourceType?: string;
}

/** `payload.referral`: the click-to-WhatsApp ad or post the customer wrote from, or null. */
export function referralOf(message: ChatMessage): AdReferral | null {
  const referral = asRecord(message.payload?.referral);
  if (!referral) return null;
  return {
    headline: textField(referral, 'headline'),
    body: textField(referral, 'body'),
    sourceUrl: textField(referral, 'sourceUrl'),
    sourceType: textField(referral, 'sourceType'),
  };
}

/** Meta names the source `ad` or `post`; anything else is shown as an ad. */
export const isPost = (referral: Pick<AdReferral, 'sourceType'>) => referral.sourceType?.toLowerCase() === 'post';

/** Above a customer's first words from an ad (issue 43): where they came from, its headline and a link to it. */
export function AdReferralBlock({ referral }: { referral: AdReferral }) {
  const post = isPost(referral);
  const href = httpUrl(referral.sourceUrl);
  return (
    <div data-testid="message-referral" className="mb-1 rounded-lg border-l-4 border-sky-500 bg-sky-50 px-2 py-1 text-xs text-slate-700">
      <p className="flex items-center gap-1 font-semibold text-sky-800">
        <LineIcon name="megaphone" />
        {post ? 'Llegó desde una publicación' : 'Llegó desde un anuncio'}
      </p>
      {referral.headline && <p className="font-medium text-slate-900">{referral.headline}</p>}
      {referral.body && <p className="line-clamp-2">{referral.body}</p>}
      {href && (
        <a href={href} target="_blank" rel="noopener noreferrer" className="font-medium text-sky-700 hover:underline">
          {post ? 'Ver publicación' : 'Ver anuncio'}
        </a>
      )}
    </div>
  );
}
