import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import { isPost } from './AdReferralBlock.tsx';
import type { ChatContext } from './chat.api.ts';
import { httpUrl } from './message-payload.ts';

const MARKETING_OPT_OUT_TITLE =
  'El contacto pidió no recibir mensajes de marketing: los envíos masivos de plantillas de marketing lo omiten. Las conversaciones y las plantillas de utilidad siguen llegando.';

/** Under the chat's title (issue 43): the ad the customer came from, and whether they stopped marketing messages. */
export function ChatContextBadges({ context }: { context: ChatContext | null }) {
  const referral = context?.adReferral ?? null;
  const optedOutAt = context?.marketingOptedOutAt ?? null;
  if (!referral && !optedOutAt) return null;
  const source = referral && isPost(referral) ? 'Publicación' : 'Anuncio';
  const href = httpUrl(referral?.sourceUrl);
  const badge = 'inline-flex max-w-full items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-medium ring-1 ring-inset';
  return (
    <div className="mt-1.5 flex flex-wrap gap-1">
      {referral && (
        <span data-testid="chat-ad-referral" title={referral.body ?? undefined} className={`${badge} bg-sky-50 text-sky-800 ring-sky-200`}>
          <LineIcon name="megaphone" />
          {href ? (
            <a href={href} target="_blank" rel="noopener noreferrer" className="truncate hover:underline">
              {source}: {referral.headline ?? 'sin título'}
            </a>
          ) : (
            <span className="truncate">
              {source}: {referral.headline ?? 'sin título'}
            </span>
          )}
        </span>
      )}
      {optedOutAt && (
        <span
          data-testid="chat-marketing-opt-out"
          title={`${MARKETING_OPT_OUT_TITLE} Desde el ${new Date(optedOutAt).toLocaleDateString('es')}.`}
          className={`${badge} bg-amber-50 text-amber-800 ring-amber-200`}
        >
          No recibe marketing
        </span>
      )}
    </div>
  );
}
