import { label, mark } from "./lib/format";

mark("admin", label("admin"));
