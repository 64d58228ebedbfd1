import { LineIcon } from '../../shared/ui/LineIcon.tsx';

interface CardContactLineProps {
  phone: string;
  isGroup: boolean;
  className?: string;
}

/**
 * The line under a chat's title: "+phone" for a person; for a group, its WhatsApp id as it is, beside the
 * group icon — a group id is not a number anyone can dial, so it must not look like one.
 */
export function CardContactLine({ phone, isGroup, className = 'text-xs text-slate-500' }: CardContactLineProps) {
  if (!isGroup)
    return (
      <p className={className} data-testid="contact-line">
        +{phone}
      </p>
    );
  return (
    <p className={`flex min-w-0 items-center gap-1 ${className}`} data-testid="contact-line">
      <span role="img" aria-label="Grupo" title="Grupo" data-testid="group-icon" className="shrink-0 text-slate-500">
        <LineIcon name="group" className="size-3.5" />
      </span>
      <span className="truncate">{phone}</span>
    </p>
  );
}
