// Shared by both entries and by the report route: one chunk.
export function label(who: string): string {
  return `[${who}]`;
}

export function mark(key: string, value: string): void {
  document.body.dataset[key] = value;
}
