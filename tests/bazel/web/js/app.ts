// The page's script: bundled with greet.ts, then minified and compressed.
import { greet, type Visitor } from "./greet";

const visitor: Visitor = { name: "bakefs", visits: 3 };

document.title = greet(visitor);
