import type { ProfessionalColor } from '@embudo/contracts/http/agenda';

/** How each of the five professional colours (spec 02 §3) looks; class names written out for Tailwind. */
export const professionalColorStyles: Record<ProfessionalColor, { label: string; dot: string; item: string }> = {
  purple: { label: 'Morado', dot: 'bg-violet-500', item: 'border-violet-500 bg-violet-100 text-violet-950 hover:bg-violet-200' },
  blue: { label: 'Azul', dot: 'bg-sky-500', item: 'border-sky-500 bg-sky-100 text-sky-950 hover:bg-sky-200' },
  orange: { label: 'Naranja', dot: 'bg-orange-500', item: 'border-orange-500 bg-orange-100 text-orange-950 hover:bg-orange-200' },
  green: { label: 'Verde', dot: 'bg-emerald-500', item: 'border-emerald-500 bg-emerald-100 text-emerald-950 hover:bg-emerald-200' },
  red: { label: 'Rojo', dot: 'bg-rose-500', item: 'border-rose-500 bg-rose-100 text-rose-950 hover:bg-rose-200' },
};
