/**
 * End to end, no mocks: the OIDC issuer documents our synth writes into Terraform JSON are
 * uploaded, exactly as the azurerm blobs describe them, to a real blob service (Azurite, on
 * 127.0.0.1 only), fetched anonymously over HTTP, and used by a real JOSE library (jose) to
 * verify service-account tokens the way Entra ID would: discovery document -> jwks_uri -> kid.
 */
import { BlobServiceClient, StorageSharedKeyCredential } from "@azure/storage-blob";
import { ChildProcess, spawn } from "node:child_process";
import { createHash, createPrivateKey, createPublicKey, KeyObject } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import * as jose from "jose";
import { LoadedConfig, validateConfig } from "../../config/load";
import { OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH } from "../../config/names";
import { synthesize } from "../../stacks/app";
import { REPO, rsaKeyPair, tempDir } from "../helpers";

/** Azurite's well-known development account (public, documented by Microsoft). */
const DEV_ACCOUNT = "devstoreaccount1";
const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const AUDIENCE = "openshift";
const SUBJECT = "system:serviceaccount:openshift-image-registry:registry";

interface KeyPair {
  /** PKCS#8 PEM, in memory only. */
  readonly privatePem: string;
  readonly publicKey: KeyObject;
}

/** One issuer container as the synthesized Terraform JSON describes it. */
interface SynthesizedIssuer {
  readonly stack: string;
  readonly container: string;
  readonly accessType: string;
  readonly blobs: ReadonlyArray<{ name: string; content: string; contentType: string; account: string }>;
}

let tmp: string;
let azurite: ChildProcess | undefined;
let azuriteOutput = "";
let endpoint: string; // http://127.0.0.1:<port>/devstoreaccount1
let blobService: BlobServiceClient;

/**
 * One of the run's RSA 2048 key pairs (helpers' rsaKeyPair: generated once per run and name, and
 * the names other test files use, so a whole run generates none for this file).
 */
function runKeyPair(name: string): KeyPair {
  const { privateKey, publicKey } = rsaKeyPair(2048, name);
  return { privatePem: createPrivateKey(privateKey).export({ type: "pkcs8", format: "pem" }).toString(), publicKey: createPublicKey(publicKey) };
}

/** Kubernetes' service-account kid, computed here independently: base64url(SHA-256(DER SPKI)). */
function expectedKid(publicKey: KeyObject): string {
  return createHash("sha256")
    .update(publicKey.export({ type: "spki", format: "der" }))
    .digest("base64url");
}

function writePublicKey(file: string, key: KeyPair): void {
  fs.writeFileSync(path.join(tmp, file), key.publicKey.export({ type: "spki", format: "pem" }));
}

function baseConfig(prefix: string): Record<string, unknown> {
  // examples/basic.yaml, with a test resource group and keys from the temp dir.
  return {
    prefix,
    subscriptionId: "00000000-0000-0000-0000-000000000000",
    tenantId: "11111111-1111-1111-1111-111111111111",
    location: "eastus",
    tags: { environment: "dev", owner: "platform-team" },
    resourceGroup: { name: "rg-test", create: false },
  };
}

/** Validates and synthesizes into <tmp>/<name>/cdktf.out; returns every issuer container found. */
function synthIssuers(config: unknown, name: string): { loaded: LoadedConfig; issuers: SynthesizedIssuer[] } {
  const loaded = validateConfig(config, tmp);
  if (!loaded.ok) throw new Error(`config invalid: ${JSON.stringify(loaded.issues, null, 2)}`);
  const outdir = path.join(tmp, name, "cdktf.out");
  synthesize(loaded, outdir);
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
  const issuers: SynthesizedIssuer[] = [];
  for (const stack of Object.values(manifest.stacks as Record<string, { name: string; synthesizedStackPath: string }>)) {
    const json = JSON.parse(fs.readFileSync(path.join(outdir, stack.synthesizedStackPath), "utf8"));
    const containers: Record<string, any> = json.resource?.azurerm_storage_container ?? {};
    const blobs: any[] = Object.values(json.resource?.azurerm_storage_blob ?? {});
    for (const [id, container] of Object.entries(containers)) {
      const own = blobs.filter((b) => b.storage_container_name === `\${azurerm_storage_container.${id}.name}`);
      issuers.push({
        stack: stack.name,
        container: container.name,
        accessType: container.container_access_type,
        blobs: own.map((b) => ({ name: b.name, content: b.source_content, contentType: b.content_type, account: b.storage_account_name })),
      });
    }
    // Every blob must belong to a container of its own stack.
    const claimed = issuers.filter((i) => i.stack === stack.name).reduce((n, i) => n + i.blobs.length, 0);
    expect(claimed).toBe(blobs.length);
  }
  return { loaded, issuers: issuers.filter((i) => i.blobs.length > 0) };
}

/** Maps a public Azure blob URL of `account` to the same path on Azurite; refuses any other URL. */
function toAzurite(url: string, account: string): string {
  const prefix = `https://${account}.blob.core.windows.net/`;
  if (!url.startsWith(prefix)) throw new Error(`${url} is not under ${prefix}`);
  return `${endpoint}/${url.slice(prefix.length)}`;
}

/** Creates the container and uploads every blob exactly as the Terraform JSON says. */
async function publish(issuer: SynthesizedIssuer): Promise<void> {
  expect(issuer.accessType).toBe("blob");
  const container = blobService.getContainerClient(issuer.container);
  await container.create({ access: issuer.accessType as "blob" });
  for (const blob of issuer.blobs) {
    await container
      .getBlockBlobClient(blob.name)
      .upload(blob.content, Buffer.byteLength(blob.content), { blobHTTPHeaders: { blobContentType: blob.contentType } });
  }
}

interface Discovered {
  readonly issuer: string;
  readonly jwks: ReturnType<typeof jose.createRemoteJWKSet>;
  readonly kid: string;
}

/**
 * Publishes an issuer, then does what a relying party does, anonymously: GET the discovery
 * document under the issuer URL, follow jwks_uri, and check both documents.
 */
async function publishAndDiscover(issuer: SynthesizedIssuer, issuerUrl: string, account: string, key: KeyPair): Promise<Discovered> {
  expect(issuer.blobs.map((b) => b.name).sort()).toEqual([OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH].sort());
  for (const blob of issuer.blobs) {
    expect(blob.contentType).toBe("application/json");
    expect(blob.account).toBe(account);
  }
  expect(issuerUrl).toBe(`https://${account}.blob.core.windows.net/${issuer.container}`);
  await publish(issuer);

  const discoveryUrl = toAzurite(`${issuerUrl}/${OIDC_DISCOVERY_PATH}`, account);
  expect(discoveryUrl).toBe(`${endpoint}/${issuer.container}/.well-known/openid-configuration`);
  const response = await fetch(discoveryUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")?.split(";")[0].trim()).toBe("application/json");
  const body = await response.text();
  expect(body).toBe(issuer.blobs.find((b) => b.name === OIDC_DISCOVERY_PATH)?.content);
  const discovery = JSON.parse(body);
  expect(discovery.issuer).toBe(issuerUrl);
  expect(discovery.jwks_uri).toBe(`${issuerUrl}/openid/v1/jwks`);
  expect(discovery.id_token_signing_alg_values_supported).toContain("RS256");

  const jwksUrl = toAzurite(discovery.jwks_uri, account);
  expect(jwksUrl).toBe(`${endpoint}/${issuer.container}/openid/v1/jwks`);
  const jwksResponse = await fetch(jwksUrl);
  expect(jwksResponse.status).toBe(200);
  expect(jwksResponse.headers.get("content-type")?.split(";")[0].trim()).toBe("application/json");
  const jwks = JSON.parse(await jwksResponse.text());
  expect(jwks.keys).toHaveLength(1);
  const [jwk] = jwks.keys;
  const expectedJwk = key.publicKey.export({ format: "jwk" });
  expect(jwk).toEqual({ use: "sig", kty: "RSA", kid: expectedKid(key.publicKey), alg: "RS256", n: expectedJwk.n, e: expectedJwk.e });
  // And the published JWK really is our public key.
  expect(createPublicKey({ key: jwk, format: "jwk" }).export({ type: "spki", format: "der" })).toEqual(key.publicKey.export({ type: "spki", format: "der" }));

  return { issuer: issuerUrl, jwks: jose.createRemoteJWKSet(new URL(jwksUrl)), kid: jwk.kid };
}

async function token(key: KeyPair, kid: string, claims: { iss: string; aud?: string; sub?: string }): Promise<string> {
  const signingKey = await jose.importPKCS8(key.privatePem, "RS256");
  return new jose.SignJWT({})
    .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
    .setIssuer(claims.iss)
    .setAudience(claims.aud ?? AUDIENCE)
    .setSubject(claims.sub ?? SUBJECT)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(signingKey);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`azurite-blob exited (${child.exitCode ?? child.signalCode}):\n${azuriteOutput}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`azurite-blob did not listen on 127.0.0.1:${port} within ${timeoutMs} ms:\n${azuriteOutput}`);
}

/** Starts Azurite, runs `whileStarting` once Azurite is spawned, then waits until it listens. */
async function startAzurite(whileStarting: () => void): Promise<void> {
  const port = await freePort();
  const main = fs.realpathSync(path.join(REPO, "node_modules", ".bin", "azurite-blob"));
  const workspace = path.join(tmp, "azurite");
  fs.mkdirSync(workspace);
  // In-memory storage (Azurite refuses --location with it); cwd keeps any stray file in tmp.
  // Run the script with this node directly (no shell in between), so killing it kills Azurite.
  azurite = spawn(
    process.execPath,
    [
      main,
      "--blobHost",
      "127.0.0.1",
      "--blobPort",
      String(port),
      "--inMemoryPersistence",
      "--skipApiVersionCheck",
      "--disableProductStyleUrl",
      "--disableTelemetry",
      "--silent",
    ],
    { cwd: workspace, stdio: ["ignore", "pipe", "pipe"] },
  );
  azurite.stdout?.on("data", (d) => (azuriteOutput += d));
  azurite.stderr?.on("data", (d) => (azuriteOutput += d));
  whileStarting();
  // Generous: Azurite takes ~1 s alone but tens of seconds on a loaded 2-core machine (parallel jest workers).
  await waitForPort(port, azurite, 60_000);
  endpoint = `http://127.0.0.1:${port}/${DEV_ACCOUNT}`;
  blobService = new BlobServiceClient(endpoint, new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY));
}

async function stopAzurite(): Promise<void> {
  const child = azurite;
  azurite = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 3000).unref());
  if ((await Promise.race([exited, timer])) === "timeout") {
    child.kill("SIGKILL");
    await exited;
  }
}

let sharedKey: KeyPair;
let rogueKey: KeyPair;
let keyA: KeyPair;
let keyB: KeyPair;

beforeAll(async () => {
  tmp = tempDir("hcp-azure-e2e-oidc-");
  await startAzurite(() => {
    // Different keys where a test tells them apart: the shared issuer's and the rogue one, cluster
    // A's and cluster B's. The two issuers are separate (own containers, own documents), so B may
    // sign with the key that is the rogue one for the shared issuer.
    [sharedKey, rogueKey, keyA, keyB] = [runKeyPair("default"), runKeyPair("other"), runKeyPair("leaked"), runKeyPair("other")];
    for (const [a, b] of [
      [sharedKey, rogueKey],
      [keyA, keyB],
    ])
      expect(expectedKid(a.publicKey)).not.toBe(expectedKid(b.publicKey));
  });
}, 90_000);

afterAll(async () => {
  await stopAzurite();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("shared OIDC issuer served from blob storage (Azurite) verifies service-account tokens", () => {
  let issuerUrl: string;
  let discovered: Discovered;

  beforeAll(async () => {
    writePublicKey("shared.public", sharedKey);
    const { loaded, issuers } = synthIssuers(
      {
        ...baseConfig("e2eshared"),
        oidc: { issuer: "shared" },
        serviceAccountSigningKey: { publicKeyFile: "shared.public" },
        clusters: [{ name: "e2eshared-hc" }],
      },
      "shared",
    );
    expect(issuers.map((i) => i.stack)).toEqual([loaded.names.sharedStack]);
    issuerUrl = loaded.names.sharedIssuer?.url as string;
    expect(loaded.names.clusters[0].issuer.url).toBe(issuerUrl);
    expect(issuers[0].container).toBe(loaded.names.sharedIssuer?.containerName);
    discovered = await publishAndDiscover(issuers[0], issuerUrl, loaded.names.storageAccount.name, sharedKey);
  });

  test("the anonymous reads depend on the synthesized access type (a private container is not readable)", async () => {
    const issuer = discovered.issuer.split("/").pop() as string;
    const discovery = await fetch(`${endpoint}/${issuer}/${OIDC_DISCOVERY_PATH}`);
    expect(discovery.status).toBe(200);
    await discovery.arrayBuffer();
    const privateContainer = blobService.getContainerClient("e2e-private");
    await privateContainer.create();
    await privateContainer.getBlockBlobClient(OIDC_DISCOVERY_PATH).upload("{}", 2);
    const denied = await fetch(`${endpoint}/e2e-private/${OIDC_DISCOVERY_PATH}`);
    await denied.arrayBuffer();
    expect(denied.status).not.toBe(200);
    expect([403, 404]).toContain(denied.status);
  });

  test("the published kid is base64url(SHA-256(DER SPKI)) of the signing key", () => {
    expect(discovered.kid).toBe(expectedKid(sharedKey.publicKey));
    expect(discovered.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("a token signed with the key verifies against the published JWKS", async () => {
    const jwt = await token(sharedKey, discovered.kid, { iss: issuerUrl });
    const { payload, protectedHeader } = await jose.jwtVerify(jwt, discovered.jwks, { issuer: issuerUrl, audience: AUDIENCE });
    expect(payload.sub).toBe(SUBJECT);
    expect(payload.iss).toBe(issuerUrl);
    expect(protectedHeader.kid).toBe(discovered.kid);
  });

  test("a token signed by another key with the same kid is rejected", async () => {
    const jwt = await token(rogueKey, discovered.kid, { iss: issuerUrl });
    await expect(jose.jwtVerify(jwt, discovered.jwks, { issuer: issuerUrl, audience: AUDIENCE })).rejects.toMatchObject({
      code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
    });
  });

  test("a token from another issuer is rejected", async () => {
    for (const iss of [`${issuerUrl}x`, issuerUrl.replace("https://", "https://other"), `${issuerUrl}/`]) {
      const jwt = await token(sharedKey, discovered.kid, { iss });
      await expect(jose.jwtVerify(jwt, discovered.jwks, { issuer: issuerUrl, audience: AUDIENCE })).rejects.toMatchObject({
        code: "ERR_JWT_CLAIM_VALIDATION_FAILED",
        claim: "iss",
      });
    }
  });

  test("a token for another audience is rejected", async () => {
    const jwt = await token(sharedKey, discovered.kid, { iss: issuerUrl, aud: "api://AzureADTokenExchange" });
    await expect(jose.jwtVerify(jwt, discovered.jwks, { issuer: issuerUrl, audience: AUDIENCE })).rejects.toMatchObject({
      code: "ERR_JWT_CLAIM_VALIDATION_FAILED",
      claim: "aud",
    });
  });
});

describe("per-cluster OIDC issuers served from blob storage (Azurite) are isolated", () => {
  const clusters = ["tenant-a", "tenant-b"];
  const byCluster = new Map<string, { issuerUrl: string; discovered: Discovered; key: KeyPair }>();

  beforeAll(async () => {
    writePublicKey("tenant-a.public", keyA);
    writePublicKey("tenant-b.public", keyB);
    const { loaded, issuers } = synthIssuers(
      {
        ...baseConfig("e2epercluster"),
        oidc: { issuer: "perCluster" },
        clusters: clusters.map((name) => ({ name, serviceAccountSigningKey: { publicKeyFile: `${name}.public` } })),
      },
      "per-cluster",
    );
    expect(loaded.names.sharedIssuer).toBeUndefined();
    expect(issuers.map((i) => i.stack).sort()).toEqual(loaded.names.clusters.map((c) => c.identitiesStack).sort());
    for (const cluster of loaded.names.clusters) {
      const issuer = issuers.find((i) => i.stack === cluster.identitiesStack) as SynthesizedIssuer;
      expect(issuer.container).toBe(cluster.issuer.containerName);
      const key = cluster.name === "tenant-a" ? keyA : keyB;
      const discovered = await publishAndDiscover(issuer, cluster.issuer.url, loaded.names.storageAccount.name, key);
      byCluster.set(cluster.name, { issuerUrl: cluster.issuer.url, discovered, key });
    }
  });

  test("each cluster has its own issuer URL and kid", () => {
    const [a, b] = clusters.map((c) => byCluster.get(c)!);
    expect(a.issuerUrl).not.toBe(b.issuerUrl);
    expect(a.discovered.kid).toBe(expectedKid(keyA.publicKey));
    expect(b.discovered.kid).toBe(expectedKid(keyB.publicKey));
    expect(a.discovered.kid).not.toBe(b.discovered.kid);
  });

  test("each cluster's token verifies against its own issuer", async () => {
    for (const { issuerUrl, discovered, key } of byCluster.values()) {
      const jwt = await token(key, discovered.kid, { iss: issuerUrl });
      const { payload } = await jose.jwtVerify(jwt, discovered.jwks, { issuer: issuerUrl, audience: AUDIENCE });
      expect(payload.sub).toBe(SUBJECT);
    }
  });

  test("cluster A's token does not verify against cluster B's issuer", async () => {
    const a = byCluster.get("tenant-a")!;
    const b = byCluster.get("tenant-b")!;
    // A's kid is not in B's JWKS.
    const own = await token(a.key, a.discovered.kid, { iss: b.issuerUrl });
    await expect(jose.jwtVerify(own, b.discovered.jwks, { issuer: b.issuerUrl, audience: AUDIENCE })).rejects.toMatchObject({
      code: "ERR_JWKS_NO_MATCHING_KEY",
    });
    // Claiming B's kid does not help: the signature is not B's.
    const forged = await token(a.key, b.discovered.kid, { iss: b.issuerUrl });
    await expect(jose.jwtVerify(forged, b.discovered.jwks, { issuer: b.issuerUrl, audience: AUDIENCE })).rejects.toMatchObject({
      code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
    });
    // And A's own token for A's issuer is still rejected by B's keys.
    const forA = await token(a.key, a.discovered.kid, { iss: a.issuerUrl });
    await expect(jose.jwtVerify(forA, b.discovered.jwks, { issuer: a.issuerUrl, audience: AUDIENCE })).rejects.toThrow();
  });
});
