import { z } from "zod";
import { TAG_RULES } from "../azure-rules";

/**
 * The value types the config's sections are built from: each pattern, message and description is
 * written once here. The patterns are published in the JSON Schema (`npm run schema`), so their
 * source text is part of the output: change one only on purpose.
 */

/** A GUID (subscription, tenant, object ID, role assignment name), either case. */
export const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const guid = (what: string) =>
  z.string().regex(GUID, {
    error: `must be a UUID like 00000000-0000-0000-0000-000000000000 (${what})`,
  });

/**
 * The parts of an ARM ID, from Azure's naming rules (learn.microsoft.com/azure/azure-resource-manager/
 * management/resource-name-rules; shared/reference/notes/azure-rules.md §1). An ID reaches
 * Terraform attributes, role scopes and messages, so no part may hold text Terraform or ARM reads
 * as syntax:
 * - the subscription: a GUID;
 * - the resource group: 1-90 letters (Unicode letters too: Azure takes Char.IsLetterOrDigit),
 *   digits, '_', '(', ')', '-' and '.', not ending in '.';
 * - the provider namespace and resource types: fixed per field, `[A-Za-z.]+`;
 * - resource names: no '/', '#' (it breaks ARM's URL parsing), '$', '{', '}', '%', '"', '\',
 *   whitespace or control characters. No resource type allows them (VNets, subnets and NSGs take
 *   letters, digits, '_', '.', '-'; identities letters, digits, '-', '_'; DNS zones labels of
 *   letters, digits, '_', '-'), and `${`/`%{` would be Terraform templates.
 * The published pattern is portable (no `\p{...}`: Python's `re` and validators without the `u`
 * flag read the JSON Schema too): its resource group part refuses only what names never hold; the
 * exact Unicode rule is checked by the schema itself (`refine`). `az identity show` prints
 * `/resourcegroups/` (Azure/azure-cli#27099); it is accepted and written as `/resourceGroups/`.
 */
const ARM_SUBSCRIPTION = GUID.source.slice(1, -1);
/** What no Azure name holds: '/', '#', '$', '{', '}', '%', '"', '\', whitespace, control characters (C0, DEL, C1). */
const NAME_CHARACTER = '[^/#$%{}"\\\\\\s\\x00-\\x1f\\x7f-\\x9f]';
const ARM_RESOURCE_GROUP_PORTABLE = `${NAME_CHARACTER.slice(0, -1)}]{0,89}${NAME_CHARACTER.slice(0, -1)}.]`;
/** The exact resource group rule (Unicode letters and digits, as Azure's Char.IsLetterOrDigit). */
const ARM_RESOURCE_GROUP = /^[-\p{L}\p{Nd}_.()]{0,89}[-\p{L}\p{Nd}_()]$/u;
/** A resource name in an ARM ID (a field may narrow its last one, as a Key Vault's). */
const ARM_NAME = `${NAME_CHARACTER}+`;
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const ARM_NAME_FORBIDDEN = /[#$%{}"\\\s\x00-\x1f\x7f-\x9f]/g;
/** The resource group segment as `az identity show` may print it. */
const RESOURCE_GROUPS_SEGMENT = /^(\/subscriptions\/[^/]*\/)resourcegroups\//i;
const RESOURCE_GROUP_RULE = "1-90 letters, digits, '_', '(', ')', '-' or '.', not ending in '.'";

/**
 * A full ARM ID of a resource type (`Microsoft.Network/virtualNetworks/subnets`: a subnet of a VNet),
 * or of one of several; `lastName` narrows the last name. The error names the part that breaks the
 * rule; the subscription is checked against the config in rules/hosted-cluster.ts.
 */
export function armId(
  types: string | readonly string[],
  example: string,
  options: { lastName?: string; ignoreCase?: boolean; min?: { length: number; error: string }; max?: { length: number; error: string } } = {},
) {
  const shapes = (typeof types === "string" ? [types] : types).map((type) => {
    if (!/^[A-Za-z.]+(\/[A-Za-z.]+)+$/.test(type)) throw new Error(`internal: ARM resource type ${type}`);
    const [namespace, ...kinds] = type.split("/");
    return [namespace.replace(/\./g, "\\."), ...kinds.map((kind, i) => `${kind}/${i === kinds.length - 1 ? (options.lastName ?? ARM_NAME) : ARM_NAME}`)].join(
      "/",
    );
  });
  const alternatives = shapes.length === 1 ? shapes[0] : `(${shapes.join("|")})`;
  const pattern = new RegExp(
    `^/subscriptions/${ARM_SUBSCRIPTION}/(resourceGroups|resourcegroups)/${ARM_RESOURCE_GROUP_PORTABLE}/providers/${alternatives}$`,
    options.ignoreCase ? "i" : "",
  );
  let id = z.string().regex(pattern, { error: (issue) => armIdProblem(String(issue.input), example), abort: true });
  if (options.min) id = id.min(options.min.length, { error: options.min.error });
  if (options.max) id = id.max(options.max.length, { error: options.max.error });
  return id
    .refine((text) => ARM_RESOURCE_GROUP.test(text.split("/")[4] ?? ""), { error: (issue) => armIdProblem(String(issue.input), example) })
    .transform((text) => text.replace(RESOURCE_GROUPS_SEGMENT, "$1resourceGroups/"));
}

/** Which part of `id` breaks the ARM ID rules, the rule, and the fix. */
function armIdProblem(id: string, example: string): string {
  const fix = "copy the ID Azure reports (`az resource show ... --query id`, or the JSON view of the resource in the portal)";
  const parts = id.split("/");
  const bad = parts.find((part) => part.match(ARM_NAME_FORBIDDEN));
  if (bad !== undefined) {
    const characters = [...new Set(bad.match(ARM_NAME_FORBIDDEN))].map((c) => JSON.stringify(c)).join(" ");
    const shown = bad.length > 40 ? `${bad.slice(0, 37)}...` : bad;
    return `has ${characters} in ${JSON.stringify(shown)}: Azure resource and resource group names never hold '#', '$', '{', '}', '%', '"', '\\', whitespace or control characters (Azure naming rules); ${fix}, like ${example}`;
  }
  const group = /^\/subscriptions\/[^/]*\/resourceGroups\/([^/]*)\//i.exec(id)?.[1];
  if (group !== undefined && !ARM_RESOURCE_GROUP.test(group)) {
    return `has the resource group ${JSON.stringify(group)}, but a resource group name is ${RESOURCE_GROUP_RULE} (Azure naming rules); ${fix}, like ${example}`;
  }
  return `must be a full ARM ID like ${example} (/subscriptions/<subscription GUID>/resourceGroups/<resource group>/providers/<type>/<name>); ${fix}`;
}

/** An IPv4 address (dotted quad, no leading zeros), as a pattern to build on. */
export const IPV4 = "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";

/** An IPv4 CIDR: address and prefix length 0-32. */
export const IPV4_CIDR = new RegExp(`^${IPV4}\\/([0-9]|[12]\\d|3[0-2])$`);

/** IPv4 CIDR; the address/prefix consistency and overlaps are checked in rules/hosted-cluster.ts. */
export const cidr = (what: string) =>
  z.string().regex(IPV4_CIDR, {
    error: `must be an IPv4 CIDR such as 10.0.0.0/16 (${what})`,
  });

/** A DNS-1123 label (Kubernetes `IsDNS1123Label`): 1-63 lowercase letters, digits or '-', starting and ending with a letter or digit. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** A DNS-1123 subdomain (Kubernetes `IsDNS1123Subdomain`): at most 253 characters of dot-separated lowercase labels. */
export const DNS1123_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const kubernetesName = (what: string) =>
  z.string().regex(DNS1123_LABEL, {
    error: `must be 1-63 lowercase letters, digits or '-', starting and ending with a letter or digit (${what})`,
  });

/** A Go duration as metav1.Duration parses it (`time.ParseDuration`), not negative: 0, 90s, 1h30m, 1.5h. */
export const GO_DURATION = /^(0|((\d+(\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;
export const goDuration = (what: string) =>
  z
    .string()
    .regex(GO_DURATION, { error: `must be a Go duration such as 0s, 10m or 1h30m (${what})` })
    .default("0s");

/** A whole number of hours, such as 8760h. */
export const hours = (example: string) => z.string().regex(/^[1-9]\d*h$/, { error: `must be a whole number of hours such as ${example}` });

/** A whole number of seconds, minutes or hours (a Terraform timeout or a polling interval), such as 10m. */
export const wholeDuration = (example: string) => z.string().regex(/^[1-9]\d*[smh]$/, { error: `must be a duration such as ${example}` });

/** An image reference: registry, repository, then an optional tag and an optional digest. */
export const IMAGE_REFERENCE =
  /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)+(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$/;

/** Whether an image reference names a tag or a digest (the registry's own `:port` does not count). */
export const hasTagOrDigest = (image: string) => /(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|@sha256:[a-f0-9]{64})$/.test(image.replace(/^[^/]*\//, ""));

/** The tags of quay.io/openshift-release-dev/ocp-release: `<x.y.z>[-<pre>]-<arch>`, arches as config/release-version.ts. */
const OCP_RELEASE_TAG = /^\d+\.\d+\.\d+(-[0-9A-Za-z]+(\.[0-9A-Za-z]+)*)?-(x86_64|aarch64|ppc64le|s390x|multi)$/;

/** An OpenShift release image reference with a tag or digest (HyperShift needs an exact release). */
export const releaseImage = z
  .string()
  .regex(IMAGE_REFERENCE, {
    error: "must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64 (registry/repository with a tag or @sha256 digest)",
  })
  .refine(hasTagOrDigest, {
    error: "must name a tag or an @sha256 digest (HyperShift needs an exact release)",
  })
  .refine(
    (image) => !/^quay\.io\/openshift-release-dev\/ocp-release:/.test(image) || image.includes("@") || OCP_RELEASE_TAG.test(image.split(":").pop() as string),
    {
      error:
        "names a tag that quay.io/openshift-release-dev/ocp-release does not publish: its tags are <x.y.z>[-<pre>]-<arch> with arch x86_64, aarch64, ppc64le, s390x or multi (e.g. 4.21.0-x86_64), or give an @sha256 digest; HyperShift would refuse it only after the cluster stack waited",
    },
  );

/** An RFC 3339 time, such as 2027-06-30T00:00:00Z. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Azure tags: Azure's limits on their number, names and values, checked per tag so the issue names it. */
export const tags = z
  .record(z.string(), z.string())
  .superRefine((value, ctx) => {
    const entries = Object.entries(value);
    if (entries.length > TAG_RULES.maxTags) {
      ctx.addIssue({ code: "custom", message: `has ${entries.length} tags; Azure allows at most ${TAG_RULES.maxTags}` });
    }
    for (const [name, tagValue] of entries) {
      if (name.length === 0 || name.length > TAG_RULES.maxNameLength || TAG_RULES.forbiddenNameCharacters.test(name)) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          input: name,
          message: `tag name must be 1-${TAG_RULES.maxNameLength} characters without < > * % & : \\ ? / +`,
        });
      }
      // eslint-disable-next-line no-control-regex
      const control = /[\u0000-\u001f\u007f]/;
      if (control.test(name) || control.test(tagValue)) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          input: control.test(name) ? name : tagValue,
          message: `tag ${control.test(name) ? "name" : "value"} has a control character (tab, line break, NUL...); Azure tags are one line of printable text`,
        });
      }
      if (tagValue.length > TAG_RULES.maxValueLength) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          input: tagValue,
          message: `tag value must be at most ${TAG_RULES.maxValueLength} characters`,
        });
      }
    }
  })
  .describe("Azure tags applied to every resource that takes tags.");

/** The client secret of a service principal this deployment creates (ExternalDNS, Private Link). */
export const clientSecret = (whose: string) =>
  z
    .strictObject({
      endDate: z
        .string()
        .regex(RFC_3339, {
          error: "must be an RFC 3339 time such as 2027-06-30T00:00:00Z",
        })
        .optional()
        .describe("Absolute expiry of the client secret (RFC 3339). Not together with validFor."),
      validFor: hours("8760h")
        .optional()
        .describe("Lifetime of the client secret from its creation, in hours. Default: 8760h (one year) unless endDate is set."),
      rotation: z.string().optional().describe("Any value; changing it replaces the client secret (rotation). Default: none."),
    })
    .default({})
    .describe(`Client secret of ${whose}.`);

/**
 * A file path in the config. A value that looks like a file's *contents* (a pull secret's JSON,
 * a PEM key, an SSH key, a token or base64 blob pasted into the path field) is refused as such and
 * never echoed: not in the error, not in a variable description, not in workspaces.json.
 */
export function filePath() {
  return z
    .string()
    .min(1, { error: "must be a path" })
    .superRefine((value, ctx) => {
      const why = contentsLike(value);
      if (why) {
        ctx.addIssue({
          code: "custom",
          // params.secret: config/load.ts shows no value for this issue.
          params: { secret: true },
          message: `looks like the file's contents (${why}), not a path; put the contents in a file and give its path (the value is not shown)`,
        });
      }
    });
}

/** Why `value` looks like file contents rather than a path; undefined when it looks like a path. */
export function contentsLike(value: string): string | undefined {
  if (value.length > 1024) return "longer than any path should be";
  if (/[\n\r]/.test(value)) return "it has line breaks";
  if (value.includes("\u0000")) return "it has a NUL character";
  if (/^\s*[{[]/.test(value)) return "it starts like JSON";
  if (/-----BEGIN /.test(value)) return "it holds a PEM header";
  if (/^\s*(ssh-(rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-\S+)\s+\S/.test(value)) return "it is an SSH key line";
  if (/(^|[\s"':=])eyJ[A-Za-z0-9_-]{10,}\./.test(value)) return "it holds a token";
  if (/[A-Za-z0-9+_=-]{64,}/.test(value.replace(/\//g, " / "))) return "it holds a long base64 or hex run";
  return undefined;
}

/**
 * The one coercion of the config: YAML reads an unquoted `1` as a number and `true` as a
 * boolean. Where the field's text can only be such a word (an availability zone "1"-"3",
 * pausedUntil "true"), the value is taken as its text; everywhere else a number or boolean where
 * text is expected is refused with a "quote it" hint (config/load.ts), since YAML may already
 * have changed the text (`4.10` reads as 4.1, `0800` as 800).
 */
export function scalarAsText<T extends z.ZodType>(inner: T) {
  return z.preprocess((value) => (typeof value === "number" || typeof value === "boolean" ? String(value) : value), inner);
}

/** An availability zone, "1"-"3" (an unquoted YAML 1 is taken as "1"). */
export const availabilityZone = () => scalarAsText(z.enum(["1", "2", "3"]));

/** Days a deleted Key Vault (and what it holds) stays recoverable: 7-90, Key Vault's own bounds; 90 by default. */
export const keyVaultRetentionDays = () =>
  z
    .number()
    .int()
    .min(7, { error: "must be at least 7 days (Key Vault minimum)" })
    .max(90, { error: "must be at most 90 days (Key Vault maximum)" })
    .default(90);
