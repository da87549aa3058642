// An entry: shares lib/shared.ts with admin.ts and loads lib/lazy.ts on
// demand.
import { sharedBanner } from "./lib/shared";

document.title = sharedBanner("app");

export async function report(): Promise<string> {
  const { lazyReport } = await import("./lib/lazy");
  return lazyReport();
}
