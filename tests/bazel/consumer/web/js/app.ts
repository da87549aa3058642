// The page's script: bundled with greet.ts and the stylesheet it imports.
import "../css/app.css";
import { greet } from "./greet";

document.title = greet("consumer");
