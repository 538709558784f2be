import { readLimitedFile } from "../read-file";
import { bundleProblems } from "./check";
import { bundleReleaseOf, exampleOnlyOf, externalDnsOf, isOperatorDeployment, operatorEnvOf, privateLinkOf, secretReferencesOf } from "./facts";
import { RENDER_HINT } from "./hypershift-install";
import { bundleObjectOf, crdsInBundle } from "./kinds";
import { ContentMemo } from "../content-memo";
import { monitoringOf } from "./monitoring";
import { omitKinds } from "./mutate";
import { parseBundleDocuments } from "./parse";
import { BUNDLE_TIERS, BundleOptions, BundleResult, BundleTier, KubernetesObject } from "./types";

/** Reads, parses and checks the bundle file (at most read-file.ts's `operatorBundle` size). Never throws for bad input. */
export function readOperatorBundle(file: string, options: BundleOptions = {}): BundleResult {
  const read = readLimitedFile(file, "operatorBundle");
  if (!read.ok) return { ok: false, problems: [`cannot read the operator bundle: ${read.message}; ${RENDER_HINT}`] };
  return parseOperatorBundle(read.text, options);
}

/** Results by bundle text and omitKinds (../content-memo.ts says who gains); 16 holds every example's bundle. */
const parsedBundles = new ContentMemo<BundleResult>(16);

/** Parses and checks bundle text. Never throws for bad input. */
export function parseOperatorBundle(text: string, options: BundleOptions = {}): BundleResult {
  // A JSON list holds no newline: the key is unambiguous.
  return parsedBundles.get(`${JSON.stringify(options.omitKinds ?? [])}\n${text}`, () => bundleOfText(text, options));
}

/** parse.ts → mutate.ts (omitKinds) → kinds.ts and clean.ts → check.ts → facts.ts. */
function bundleOfText(text: string, options: BundleOptions): BundleResult {
  const parsed = parseBundleDocuments(text);
  if (!parsed.ok) return parsed;
  const omitted = omitKinds(parsed.objects, options.omitKinds ?? []);
  const crds = crdsInBundle(omitted.kept);
  const kept = omitted.kept.map((rendered) => ({ rendered, bundled: bundleObjectOf(rendered, crds) }));
  const problems = [...omitted.problems, ...bundleProblems(kept, crds)];
  if (problems.length > 0) return { ok: false, problems };

  // bundleProblems found it.
  const operator = kept.find(({ rendered }) => isOperatorDeployment(rendered.object))?.rendered.object as KubernetesObject;
  const objects = kept.map(({ bundled }) => bundled);
  const order = (tier: BundleTier) => BUNDLE_TIERS.indexOf(tier);
  return {
    ok: true,
    bundle: {
      // Stable sort: bundle order within a tier.
      objects: [...objects].sort((a, b) => order(a.tier) - order(b.tier)),
      operatorNamespace: operator.metadata.namespace ?? "default",
      externalDns: externalDnsOf(kept.map(({ rendered }) => rendered.object)),
      secretReferences: secretReferencesOf(objects.map((o) => o.manifest)),
      operatorEnv: operatorEnvOf(operator),
      privateLink: privateLinkOf(operator),
      // Before omitKinds: an omitted object still marks an example.
      exampleOnly: exampleOnlyOf(parsed.objects.map(({ object }) => object)),
      monitoring: monitoringOf(parsed.objects.map(({ object }) => object)),
      release: bundleReleaseOf(operator),
    },
  };
}
