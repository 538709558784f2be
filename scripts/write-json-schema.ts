import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { configSchema } from "../config/schema";

/** Where the published JSON Schema lives (referenced by the examples' yaml-language-server line). */
export const JSON_SCHEMA_FILE = path.join(__dirname, "..", "..", "config", "hcp-azure.schema.json");

/** The config's JSON Schema (input side: defaulted keys are optional), as published. */
export function renderJsonSchema(): string {
  const schema = z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any" });
  return `${JSON.stringify({ ...schema, title: "hcp-azure deployment config" }, null, 2)}\n`;
}

if (require.main === module) {
  fs.writeFileSync(JSON_SCHEMA_FILE, renderJsonSchema());
  console.log(`wrote ${path.relative(process.cwd(), JSON_SCHEMA_FILE)}`);
}
