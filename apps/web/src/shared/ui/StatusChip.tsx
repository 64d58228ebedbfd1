import type { HTMLAttributes } from 'react';

/** The review look shared by templates and batches: approved (green), pending (amber), rejected (red). */
const tones = {
  approved: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  pending: 'bg-amber-50 text-amber-700 ring-amber-600/20',
  rejected: 'bg-rose-50 text-rose-700 ring-rose-600/20',
  neutral: 'bg-slate-100 text-slate-600 ring-slate-500/20',
} as const;

export type StatusTone = keyof typeof tones;

export function StatusChip({ tone, label, ...props }: { tone: StatusTone; label: string } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span data-tone={tone} className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${tones[tone]}`} {...props}>
      {label}
    </span>
  );
}
