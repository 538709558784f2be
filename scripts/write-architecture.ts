import * as fs from "node:fs";
import * as path from "node:path";
import { ARCHITECTURE_FILE, renderArchitecture } from "./architecture/render";

/** `npm run diagrams`: regenerates help/architecture.md from the synthesized examples. */
if (require.main === module) {
  fs.writeFileSync(ARCHITECTURE_FILE, renderArchitecture());
  console.log(`wrote ${path.relative(process.cwd(), ARCHITECTURE_FILE)}`);
}
