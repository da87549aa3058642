// Imported by both entries: bundled once, into the shared chunk.
export function sharedBanner(who: string): string {
  return `bakefs-shared-banner for ${who}`;
}
