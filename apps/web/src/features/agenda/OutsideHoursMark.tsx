/** The calendar's mark on an appointment booked outside its professional's weekly hours; the reason shows on hover and to screen readers. */
export function OutsideHoursMark({ warning }: { warning: string }) {
  return (
    <span
      role="img"
      aria-label={warning}
      title={warning}
      data-testid="outside-hours-mark"
      className="inline-grid size-3.5 shrink-0 place-items-center rounded-full bg-amber-500 text-[9px] leading-none font-bold text-white"
    >
      !
    </span>
  );
}
