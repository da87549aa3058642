import { ok } from "./syntax";

console.log(ok(1));
