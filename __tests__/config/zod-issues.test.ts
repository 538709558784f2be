import { z } from "zod";
import { fromZodIssue } from "../../config/zod-issues";

/**
 * config/zod-issues.ts: zod's own wording replaced by the rule. No config field has a record key
 * schema today (each checks its keys itself, naming the key); a field that adds one gets this.
 */
describe("fromZodIssue", () => {
  it("a record key its key schema refuses: the key's rule and the fix, not 'Invalid key in record'", () => {
    const schema = z.object({ labels: z.record(z.string().regex(/^[a-z]+$/, { error: "must be lowercase letters" }), z.string()) });
    const result = schema.safeParse({ labels: { "Bad Key!": "x" } });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map(fromZodIssue);
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'labels["Bad Key!"]',
        message: "is not a valid key here: it must be lowercase letters; rename it (help/configuration.md)",
      }),
    ]);
  });
});
