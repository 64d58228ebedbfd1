/**
 * The funnel the board shows: the one last chosen while it is still listed, otherwise the first. Free of zod: the
 * board's boot script imports it before the app's code has loaded.
 */
export function shownFunnelId(funnels: readonly { id: string }[], selectedId: string | null | undefined): string | null {
  return funnels.find((funnel) => funnel.id === selectedId)?.id ?? funnels[0]?.id ?? null;
}
