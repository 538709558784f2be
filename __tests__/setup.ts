import "./setup-token-stacks";
import { Testing } from "cdktf";
import "cdktf/lib/testing/adapters/jest";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { installFastTestingSynth } from "./fast-testing-synth";

Testing.setupJest();
installFastTestingSynth();

// cdktf's Testing.app() makes an output folder per app in the system's temporary folder and never
// removes it; App's constructor makes the folder and its stacks/ (unless they exist), and
// Testing.synth writes nothing there. Here every Testing.app() without an outdir of its own gets
// this worker's one folder in the run's temporary folder (removed when the run ends), made once:
// thousands of apps per run made two folders each (about a CPU-second with their removal).
// A test that writes an app's output (app.synth()) gives the app an outdir of its own.
const app = Testing.app.bind(Testing);
const outdirs = process.env.HCP_AZURE_TEST_TMPDIR ?? os.tmpdir();
const shared = path.join(outdirs, `cdktf.outdir.${randomUUID()}`);
fs.mkdirSync(path.join(shared, "stacks"), { recursive: true });
Testing.app = (options = {}) => app(options.outdir ? options : { ...options, outdir: shared });
