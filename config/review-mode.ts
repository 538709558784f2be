/**
 * Review mode (`HCP_AZURE_REVIEW=1`, set by `npm run review` when it synthesizes a git ref): synth
 * for a pull-request review on a CI runner that holds no secret, key or kubeconfig. The output is
 * for comparing two synths only, never for deploying: the cdktf CLI refuses it (main.ts).
 *
 * - files mode: the secret files (pull secrets, the signing private key, credentials, the
 *   kubeconfig) are neither required nor read, as with `secrets.filesOnlyWhereTerraformRuns`;
 * - a signing public key file that is missing (e.g. in the git-ignored keys/) is replaced by
 *   PLACEHOLDER_PUBLIC_KEY, and synth says so: the JWKS then publishes the placeholder, the same on
 *   both sides of the review, so only real key changes are compared;
 * - nothing is read from or written to the deployed state's records (no refusal from them either).
 */

/** The environment variable that turns review mode on. */
export const REVIEW_MODE_ENV = "HCP_AZURE_REVIEW";

/** Whether synth runs in review mode. */
export function isReviewMode(env: NodeJS.ProcessEnv): boolean {
  return env[REVIEW_MODE_ENV] === "1" || env[REVIEW_MODE_ENV] === "true";
}

/**
 * A fixed RSA public key standing for a missing signing public key in review mode. Its private half
 * was never kept: nothing can sign with it, so a JWKS that publishes it trusts no token.
 */
export const PLACEHOLDER_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAo2LZDBb0rJ/uUcxfNIST
x+IC4KNiQIMC9MZalNZSdKBKciXhj/QJuTc8bkdGY+6Q2TF/e/V3pEDOuf7ZtofF
o9RR+r2W3piPvncq3Velix6corDQQxNtvVxCoO55fqPeW5EiAPryGjcBTK6nIzmt
SmW+YmeGYfCyT99hP5J6vUWsXxrCgVr1ypQOsquu2KKqGCXR9QQkJIEY4cX8el6C
tN8jS6TJwQisVSXe3p5Bt9uEPdoQG8gE2eX2+2Kpe8UKYB6NNtqQq5+bHfvC2WUt
LHUHNocR3AMdjnY25NE3udfJKJ359PiJAs7ej75UH+rtIbbuIVPY/AQMlF0muOck
sQIDAQAB
-----END PUBLIC KEY-----
`;

/** What synth prints for a placeholder key (the warning starts with "review mode:", which the review collects). */
export function placeholderKeyWarning(field: string, file: string): string {
  return `review mode: ${field} ${file} does not exist here; the JWKS publishes a placeholder key instead (output for review only, never deploy it)`;
}
