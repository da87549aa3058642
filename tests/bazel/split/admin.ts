// The other entry: shares lib/shared.ts with app.ts.
import { sharedBanner } from "./lib/shared";

document.title = sharedBanner("admin");
